// SPDX-License-Identifier: GPL-2.0
/*
 * Connecting to the directory: the URIs are tried in order, each bounded by
 * the connect (network_timeout) and operation (timeout) limits, so a dead
 * or silent first server costs at most those seconds before the next one
 * answers.  TLS and the bind follow the auth file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>
#include <sasl/sasl.h>

#include "ldap_priv.h"

static int conn_set_options(struct ldap_conn *conn, LDAP *ld)
{
	struct timeval net = { .tv_sec = conn->lc_net_timeout };
	struct timeval op = { .tv_sec = conn->lc_timeout };
	int version = LDAP_VERSION3;

	if (ldap_set_option(ld, LDAP_OPT_PROTOCOL_VERSION, &version) ||
	    ldap_set_option(ld, LDAP_OPT_REFERRALS, LDAP_OPT_OFF) ||
	    ldap_set_option(ld, LDAP_OPT_NETWORK_TIMEOUT, &net) ||
	    ldap_set_option(ld, LDAP_OPT_TIMEOUT, &op))
		return -EINVAL;
	return 0;
}

static int sasl_interact(LDAP *ld, unsigned int flags, void *defaults, void *in)
{
	const struct ldap_auth *auth = defaults;
	sasl_interact_t *it;
	const char *v;

	(void)ld;
	(void)flags;
	for (it = in; it->id != SASL_CB_LIST_END; it++) {
		switch (it->id) {
		case SASL_CB_AUTHNAME:
			v = auth->la_user;
			break;
		case SASL_CB_PASS:
			v = auth->la_secret;
			break;
		case SASL_CB_USER:	/* no separate authorization identity */
			v = "";
			break;
		default:
			v = it->defresult;
			break;
		}
		it->result = v ? v : "";
		it->len = (unsigned int)strlen(it->result);
	}
	return LDAP_SUCCESS;
}

static int conn_bind(struct ldap_conn *conn, LDAP *ld)
{
	const struct ldap_auth *auth = conn->lc_auth;
	struct berval cred = { 0 };

	switch (auth->la_req) {
	case LA_BIND_SASL:
		if (auth->la_ccache)
			setenv("KRB5CCNAME", auth->la_ccache, 1);
		return ldap_sasl_interactive_bind_s(ld, NULL, auth->la_mech,
						    NULL, NULL, LDAP_SASL_QUIET,
						    sasl_interact, (void *)auth);
	case LA_BIND_SIMPLE:
		cred.bv_val = auth->la_secret;
		cred.bv_len = strlen(auth->la_secret);
		return ldap_sasl_bind_s(ld, auth->la_user, LDAP_SASL_SIMPLE,
					&cred, NULL, NULL, NULL);
	default:
		/* an anonymous bind still proves the server answers */
		return ldap_sasl_bind_s(ld, NULL, LDAP_SASL_SIMPLE, &cred,
					NULL, NULL, NULL);
	}
}

static bool uri_is_plain(const char *uri)
{
	return !strncasecmp(uri, "ldap://", 7);
}

/*
 * Returns: an LDAP error code; *LDP is set on LDAP_SUCCESS only,
 * *TLS_FAILED when the server answered but StartTLS did not succeed.
 */
static int conn_try(struct ldap_conn *conn, const char *uri, bool tls,
		    LDAP **ldp, bool *tls_failed)
{
	const struct am_host *host = conn->lc_host;
	LDAP *ld;
	int rc;

	rc = ldap_initialize(&ld, uri);
	if (rc != LDAP_SUCCESS)
		return rc;
	if (conn_set_options(conn, ld)) {
		rc = LDAP_PARAM_ERROR;
		goto fail_unbind;
	}
	if (tls) {
		rc = ldap_start_tls_s(ld, NULL, NULL);
		if (rc != LDAP_SUCCESS) {
			ldap_log(host, LOG_WARNING, "%s: StartTLS failed: %s",
				 uri, ldap_err2string(rc));
			*tls_failed = true;
			goto fail_unbind;
		}
	}
	rc = conn_bind(conn, ld);
	if (rc != LDAP_SUCCESS) {
		ldap_log(host, LOG_WARNING, "%s: bind as %s failed: %s", uri,
			 conn->lc_auth->la_user ? conn->lc_auth->la_user : "anonymous",
			 ldap_err2string(rc));
		goto fail_unbind;
	}
	*ldp = ld;
	return LDAP_SUCCESS;
fail_unbind:
	ldap_unbind_ext_s(ld, NULL, NULL);
	return rc;
}

/* One URI: TLS as the auth file asks, without TLS only when it is optional. */
static int conn_open_uri(struct ldap_conn *conn, const char *uri, LDAP **ldp)
{
	bool tls = conn->lc_auth->la_usetls && uri_is_plain(uri), tls_failed = false;
	int rc;

	rc = conn_try(conn, uri, tls, ldp, &tls_failed);
	if (rc == LDAP_SUCCESS || !tls_failed || conn->lc_auth->la_tlsrequired)
		return rc;
	ldap_log(conn->lc_host, LOG_WARNING,
		 "%s: TLS is optional (tlsrequired=no), going on without it", uri);
	return conn_try(conn, uri, false, ldp, &tls_failed);
}

/*
 * libldap initializes itself on the first connection, and that runs
 * sasl_client_init(), which loads every Cyrus SASL plugin installed:
 * GSSAPI with the Kerberos libraries, DIGEST-MD5 with OpenSSL's libcrypto,
 * sasldb with Berkeley DB and more, the larger part of an LDAP lookup in
 * an agent that lives for one lookup.  A bind without SASL needs none of
 * them: SASL_PATH then names a plugin "directory" that holds none (an
 * administrator's own SASL_PATH is kept).
 */
static void conn_plugins(const struct ldap_conn *conn)
{
	if (conn->lc_auth->la_req != LA_BIND_SASL)
		setenv("SASL_PATH", "/dev/null", 0);
}

/*
 * Connect to the first URI of the list that answers and accepts the bind.
 * Returns: 0, -EAGAIN when none does (each failure has been logged).
 */
int ldap_conn_open(struct ldap_conn *conn)
{
	size_t i;
	int rc;

	if (conn->lc_ld)
		return 0;
	conn_plugins(conn);
	for (i = 0; conn->lc_uris[i]; i++) {
		rc = conn_open_uri(conn, conn->lc_uris[i], &conn->lc_ld);
		if (rc == LDAP_SUCCESS) {
			conn->lc_uri = conn->lc_uris[i];
			return 0;
		}
		ldap_log(conn->lc_host, LOG_WARNING, "%s: unavailable (%s)%s",
			 conn->lc_uris[i], ldap_err2string(rc),
			 conn->lc_uris[i + 1] ? ", trying the next URI" : "");
	}
	ldap_log(conn->lc_host, LOG_ERR, "no LDAP server of \"%s%s\" answered",
		 conn->lc_uris[0] ? conn->lc_uris[0] : "",
		 conn->lc_uris[0] && conn->lc_uris[1] ? " ..." : "");
	return -EAGAIN;
}

void ldap_conn_close(struct ldap_conn *conn)
{
	if (conn->lc_ld)
		ldap_unbind_ext_s(conn->lc_ld, NULL, NULL);
	conn->lc_ld = NULL;
	conn->lc_uri = NULL;
}

static bool rc_is_unavailable(int rc)
{
	return rc == LDAP_SERVER_DOWN || rc == LDAP_TIMEOUT ||
	       rc == LDAP_CONNECT_ERROR || rc == LDAP_UNAVAILABLE ||
	       rc == LDAP_BUSY || rc == LDAP_TIMELIMIT_EXCEEDED;
}

/*
 * Log a failed operation WHAT and turn RC into the module convention.
 * Returns: -EAGAIN (connection dropped, closed here), -ENOENT, -EACCES, -EIO.
 */
int ldap_conn_error(struct ldap_conn *conn, int rc, const char *what)
{
	ldap_log(conn->lc_host, rc == LDAP_NO_SUCH_OBJECT ? LOG_INFO : LOG_ERR,
		 "%s: %s: %s", conn->lc_uri ? conn->lc_uri : "-", what,
		 ldap_err2string(rc));
	if (rc_is_unavailable(rc)) {
		ldap_conn_close(conn);
		return -EAGAIN;
	}
	if (rc == LDAP_NO_SUCH_OBJECT)
		return -ENOENT;
	if (rc == LDAP_INSUFFICIENT_ACCESS || rc == LDAP_INAPPROPRIATE_AUTH ||
	    rc == LDAP_STRONG_AUTH_REQUIRED || rc == LDAP_CONFIDENTIALITY_REQUIRED)
		return -EACCES;
	return -EIO;
}
