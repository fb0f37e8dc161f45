// SPDX-License-Identifier: GPL-2.0
/*
 * The authentication file, the shape autofs sites already have
 * (autofs_ldap_auth.conf): one element whose attributes say whether to use
 * TLS and how to bind.  It holds a secret, so a file others can read is
 * refused rather than used.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <syslog.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "ldap_priv.h"

#define AUTH_ROOT "autofs_ldap_sasl_conf"

struct auth_reader {
	const struct am_host *ar_host;
	const char *ar_path;
	char ar_err[256];		/* first libxml2 complaint */
};

static void auth_xml_error(void *arg, const xmlError *err)
{
	struct auth_reader *r = arg;
	size_t len;

	if (r->ar_err[0] || !err->message)
		return;
	snprintf(r->ar_err, sizeof(r->ar_err), "line %d: %s", err->line,
		 err->message);
	len = strlen(r->ar_err);
	if (len && r->ar_err[len - 1] == '\n')
		r->ar_err[len - 1] = '\0';
}

/* Returns: 1 for yes/true/1, 0 for no/false/0 or absent, -EINVAL otherwise. */
static int auth_bool(struct auth_reader *r, xmlNode *root, const char *name)
{
	xmlChar *v = xmlGetProp(root, (const xmlChar *)name);
	int ret = -EINVAL;

	if (!v)
		return 0;
	if (!strcasecmp((char *)v, "yes") || !strcasecmp((char *)v, "true") ||
	    !strcmp((char *)v, "1"))
		ret = 1;
	else if (!strcasecmp((char *)v, "no") ||
		 !strcasecmp((char *)v, "false") || !strcmp((char *)v, "0"))
		ret = 0;
	else
		ldap_log(r->ar_host, LOG_ERR,
			 "auth file %s: %s=\"%s\" is neither yes nor no",
			 r->ar_path, name, (char *)v);
	xmlFree(v);
	return ret;
}

/* Returns: 0 with *OUT set to a malloc'd copy (NULL when absent), -ENOMEM. */
static int auth_str(xmlNode *root, const char *name, char **out)
{
	xmlChar *v = xmlGetProp(root, (const xmlChar *)name);

	*out = NULL;
	if (!v)
		return 0;
	*out = strdup((char *)v);
	xmlFree(v);
	return *out ? 0 : -ENOMEM;
}

/*
 * authrequired says whether to bind at all ("simple" meaning a simple
 * bind); authtype names the SASL mechanism, or "simple".
 */
static int auth_bind_kind(struct auth_reader *r, xmlNode *root,
			  struct ldap_auth *auth)
{
	xmlChar *req = xmlGetProp(root, (const xmlChar *)"authrequired");
	int ret = 0;

	auth->la_req = LA_BIND_ANON;
	if (req && !strcasecmp((char *)req, "simple")) {
		auth->la_req = LA_BIND_SIMPLE;
	} else if (req && (!strcasecmp((char *)req, "yes") ||
			   !strcasecmp((char *)req, "autodetect"))) {
		auth->la_req = LA_BIND_SASL;
	} else if (req && strcasecmp((char *)req, "no")) {
		ldap_log(r->ar_host, LOG_ERR,
			 "auth file %s: authrequired=\"%s\" is not yes, no, simple or autodetect",
			 r->ar_path, (char *)req);
		ret = -EINVAL;
	}
	xmlFree(req);
	if (ret || auth->la_req == LA_BIND_ANON)
		return ret;
	ret = auth_str(root, "authtype", &auth->la_mech);
	if (ret)
		return ret;
	if (!auth->la_mech || !strcasecmp(auth->la_mech, "simple")) {
		auth->la_req = LA_BIND_SIMPLE;
		return 0;
	}
	for (char *c = auth->la_mech; *c; c++)
		*c = (char)toupper((unsigned char)*c);
	return 0;
}

/* Returns: 1 for yes, 0 for no, DEF when NAME is absent, -EINVAL otherwise. */
static int auth_bool_def(struct auth_reader *r, xmlNode *root, const char *name,
			 int def)
{
	if (!xmlHasProp(root, (const xmlChar *)name))
		return def;
	return auth_bool(r, root, name);
}

/*
 * Ours, not autofs's, which leaves both to ldap.conf and takes
 * tlsrequired="no" as leave to go on in the clear: the certificate is
 * checked unless tlsverify="no", a failed StartTLS ends the connection
 * unless tlsfallback="yes".  Asking for both TLS and leave to go without
 * it is refused, not guessed.
 */
static int auth_tls_extras(struct auth_reader *r, xmlNode *root,
			   struct ldap_auth *auth)
{
	int verify, fallback;

	verify = auth_bool_def(r, root, "tlsverify", 1);
	if (verify < 0)
		return verify;
	fallback = auth_bool_def(r, root, "tlsfallback", 0);
	if (fallback < 0)
		return fallback;
	auth->la_tlsnoverify = !verify;
	auth->la_tlsfallback = fallback;
	if (fallback && auth->la_tlsrequired) {
		ldap_log(r->ar_host, LOG_ERR,
			 "auth file %s: tlsrequired=\"yes\" and tlsfallback=\"yes\" contradict each other",
			 r->ar_path);
		return -EINVAL;
	}
	return 0;
}

static int auth_parse(struct auth_reader *r, xmlNode *root,
		      struct ldap_auth *auth)
{
	int ret;

	if (!root || xmlStrcmp(root->name, (const xmlChar *)AUTH_ROOT)) {
		ldap_log(r->ar_host, LOG_ERR,
			 "auth file %s: the root element is not <%s>",
			 r->ar_path, AUTH_ROOT);
		return -EINVAL;
	}
	ret = auth_bool(r, root, "usetls");
	if (ret < 0)
		return ret;
	auth->la_usetls = ret;
	ret = auth_bool(r, root, "tlsrequired");
	if (ret < 0)
		return ret;
	auth->la_tlsrequired = ret;
	if (auth->la_tlsrequired)
		auth->la_usetls = true;
	ret = auth_tls_extras(r, root, auth);
	if (!ret)
		ret = auth_bind_kind(r, root, auth);
	if (!ret)
		ret = auth_str(root, "user", &auth->la_user);
	if (!ret)
		ret = auth_str(root, "secret", &auth->la_secret);
	if (!ret)
		ret = auth_str(root, "clientprinc", &auth->la_clientprinc);
	if (!ret)
		ret = auth_str(root, "credentialcache", &auth->la_ccache);
	if (ret)
		return ret;
	if (auth->la_req == LA_BIND_SIMPLE && (!auth->la_user || !auth->la_secret)) {
		ldap_log(r->ar_host, LOG_ERR,
			 "auth file %s: a simple bind needs both user and secret",
			 r->ar_path);
		return -EINVAL;
	}
	return 0;
}

static int auth_check_mode(struct auth_reader *r)
{
	struct stat st;

	if (stat(r->ar_path, &st) < 0) {
		int err = errno;

		ldap_log(r->ar_host, LOG_ERR, "auth file %s: %s", r->ar_path,
			 strerror(err));
		return -err;
	}
	if (st.st_mode & (S_IROTH | S_IWOTH)) {
		ldap_log(r->ar_host, LOG_ERR,
			 "auth file %s: refused, mode %04o lets others read or write the secret (chmod 600 it)",
			 r->ar_path, (unsigned int)(st.st_mode & 07777));
		return -EACCES;
	}
	return 0;
}

/*
 * Read the auth file PATH into AUTH.
 * Returns: 0, -EACCES when others may read it, -EINVAL when malformed,
 * -errno when it cannot be read.  Each failure is logged with the reason.
 */
int ldap_auth_read(struct ldap_auth *auth, const char *path,
		   const struct am_host *host)
{
	struct auth_reader r = { .ar_host = host, .ar_path = path };
	xmlDoc *doc;
	int ret;

	memset(auth, 0, sizeof(*auth));
	ret = auth_check_mode(&r);
	if (ret)
		return ret;
	xmlSetStructuredErrorFunc(&r, (xmlStructuredErrorFunc)auth_xml_error);
	doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
	xmlSetStructuredErrorFunc(NULL, NULL);
	if (!doc) {
		ldap_log(host, LOG_ERR, "auth file %s: malformed XML, %s", path,
			 r.ar_err[0] ? r.ar_err : "cannot be parsed");
		return -EINVAL;
	}
	ret = auth_parse(&r, xmlDocGetRootElement(doc), auth);
	xmlFreeDoc(doc);
	if (ret)
		ldap_auth_free(auth);
	return ret;
}

void ldap_auth_free(struct ldap_auth *auth)
{
	free(auth->la_mech);
	free(auth->la_user);
	if (auth->la_secret)
		explicit_bzero(auth->la_secret, strlen(auth->la_secret));
	free(auth->la_secret);
	free(auth->la_clientprinc);
	free(auth->la_ccache);
	memset(auth, 0, sizeof(*auth));
}
