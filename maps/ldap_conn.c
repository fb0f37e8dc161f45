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
#include <stdio.h>
#include <syslog.h>
#include <sasl/sasl.h>

#include "am_util.h"
#include "ldap_priv.h"

static int conn_set_options(struct ldap_conn *conn, LDAP *ld)
{
	struct timeval net = { .tv_sec = conn->lc_net_timeout };
	struct timeval op = { .tv_sec = conn->lc_timeout };
	ber_len_t max = conn->lc_limits.ll_bytes;
	int version = LDAP_VERSION3;
	Sockbuf *sb = NULL;

	if (ldap_set_option(ld, LDAP_OPT_PROTOCOL_VERSION, &version) ||
	    ldap_set_option(ld, LDAP_OPT_REFERRALS, LDAP_OPT_OFF) ||
	    ldap_set_option(ld, LDAP_OPT_NETWORK_TIMEOUT, &net) ||
	    ldap_set_option(ld, LDAP_OPT_TIMEOUT, &op))
		return -EINVAL;
	/*
	 * libldap reads a whole message before handing it over: one message
	 * longer than what a whole lookup may read fails the connection
	 * instead of growing the agent.
	 */
	if (ldap_get_option(ld, LDAP_OPT_SOCKBUF, &sb) || !sb ||
	    ber_sockbuf_ctrl(sb, LBER_SB_OPT_SET_MAX_INCOMING, &max) != 1)
		return -EINVAL;
	return 0;
}

/*
 * A new handle starts with no TLS files (libldap 2.5): those ldap.conf and
 * LDAPTLS_* give for the process are copied to it.
 * Returns: 0, -EINVAL when the handle refuses one.
 */
static int conn_copy_tls(LDAP *ld)
{
	static const int strs[] = {
		LDAP_OPT_X_TLS_CACERTFILE, LDAP_OPT_X_TLS_CACERTDIR,
		LDAP_OPT_X_TLS_CERTFILE, LDAP_OPT_X_TLS_KEYFILE,
		LDAP_OPT_X_TLS_CIPHER_SUITE, LDAP_OPT_X_TLS_CRLFILE,
	};
	int min, err = 0;
	char *v;
	size_t i;

	for (i = 0; i < sizeof(strs) / sizeof(strs[0]) && !err; i++) {
		v = NULL;
		if (!ldap_get_option(NULL, strs[i], &v) && v)
			err = ldap_set_option(ld, strs[i], v);
		ldap_memfree(v);
	}
	if (!err && !ldap_get_option(NULL, LDAP_OPT_X_TLS_PROTOCOL_MIN, &min))
		err = ldap_set_option(ld, LDAP_OPT_X_TLS_PROTOCOL_MIN, &min);
	return err ? -EINVAL : 0;
}

/*
 * The server's certificate is checked here, not as ldap.conf's TLS_REQCERT
 * says: a "never" or "allow" there, set for some other client, must not let
 * whoever is on the path answer for the directory.  Only tlsverify="no" in
 * the auth file turns the check off.  A handle uses its own TLS options
 * only in a TLS context of its own (NEWCTX); the CA still comes from
 * ldap.conf or LDAPTLS_CACERT.
 */
static int conn_set_tls(struct ldap_conn *conn, LDAP *ld, const char *uri)
{
	int req = conn->lc_auth->la_tlsnoverify ? LDAP_OPT_X_TLS_NEVER :
						  LDAP_OPT_X_TLS_DEMAND;
	int is_server = 0;

	if (conn_copy_tls(ld) ||
	    ldap_set_option(ld, LDAP_OPT_X_TLS_REQUIRE_CERT, &req) ||
	    ldap_set_option(ld, LDAP_OPT_X_TLS_NEWCTX, &is_server)) {
		ldap_log(conn->lc_host, LOG_ERR,
			 "%s: cannot set up TLS (is ldap.conf's TLS_CACERT readable?)",
			 uri);
		return -EINVAL;
	}
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

static bool uri_is_tls(const char *uri)
{
	return !strncasecmp(uri, "ldaps://", 8);
}

/*
 * Optional TLS is no TLS against whoever is on the path: he makes StartTLS
 * fail and reads the bind and the maps.  So a failed StartTLS ends the
 * connection unless the auth file says tlsfallback="yes".
 */
static void conn_log_starttls(struct ldap_conn *conn, LDAP *ld, const char *uri,
			      int rc)
{
	char *diag = NULL;
	bool say;

	/* GnuTLS builds leave "(unknown error code)" there: not worth a word */
	ldap_get_option(ld, LDAP_OPT_DIAGNOSTIC_MESSAGE, &diag);
	say = diag && *diag && *diag != '(';
	ldap_log(conn->lc_host, LOG_ERR, "%s: StartTLS failed: %s%s%s%s, %s", uri,
		 ldap_err2string(rc), say ? " (" : "", say ? diag : "",
		 say ? ")" : "",
		 conn->lc_auth->la_tlsfallback ?
		 "going on IN THE CLEAR as tlsfallback=\"yes\" allows: the bind and the maps are open to anyone on the path" :
		 "not going on in the clear (only tlsfallback=\"yes\" in the auth file allows that)");
	ldap_memfree(diag);
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
	rc = LDAP_PARAM_ERROR;
	if (conn_set_options(conn, ld) ||
	    ((tls || uri_is_tls(uri)) && conn_set_tls(conn, ld, uri)))
		goto fail_unbind;
	if (tls) {
		rc = ldap_start_tls_s(ld, NULL, NULL);
		if (rc != LDAP_SUCCESS) {
			conn_log_starttls(conn, ld, uri, rc);
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

/* One URI: TLS as the auth file asks, in the clear only when it allows that. */
static int conn_open_uri(struct ldap_conn *conn, const char *uri, LDAP **ldp)
{
	bool tls = conn->lc_auth->la_usetls && uri_is_plain(uri), tls_failed = false;
	int rc;

	rc = conn_try(conn, uri, tls, ldp, &tls_failed);
	if (rc == LDAP_SUCCESS || !tls_failed || !conn->lc_auth->la_tlsfallback)
		return rc;
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
	conn->lc_broken = false;
}

static bool rc_is_unavailable(int rc)
{
	return rc == LDAP_SERVER_DOWN || rc == LDAP_TIMEOUT ||
	       rc == LDAP_CONNECT_ERROR || rc == LDAP_UNAVAILABLE ||
	       rc == LDAP_BUSY || rc == LDAP_TIMELIMIT_EXCEEDED;
}

/*
 * Log a failed operation WHAT and turn RC into the module convention.
 * Returns: -EAGAIN (connection dropped, closed here), -ENOENT, -EACCES,
 * -EFBIG (a limit of lc_limits exceeded), -EIO.
 */
int ldap_conn_error(struct ldap_conn *conn, int rc, const char *what)
{
	ldap_log(conn->lc_host, rc == LDAP_NO_SUCH_OBJECT ? LOG_INFO : LOG_ERR,
		 "%s: %s: %s", conn->lc_uri ? conn->lc_uri : "-", what,
		 conn->lc_why[0] ? conn->lc_why : ldap_err2string(rc));
	conn->lc_why[0] = '\0';
	if (conn->lc_broken)	/* libldap has dropped it already */
		ldap_conn_close(conn);
	if (rc_is_unavailable(rc)) {
		ldap_conn_close(conn);
		return -EAGAIN;
	}
	if (rc == LDAP_NO_SUCH_OBJECT)
		return -ENOENT;
	if (rc == LDAP_INSUFFICIENT_ACCESS || rc == LDAP_INAPPROPRIATE_AUTH ||
	    rc == LDAP_STRONG_AUTH_REQUIRED || rc == LDAP_CONFIDENTIALITY_REQUIRED)
		return -EACCES;
	if (rc == LDAP_ADMINLIMIT_EXCEEDED)
		return -EFBIG;
	return -EIO;
}

/* A lookup or a listing starts: what it may read is counted from here. */
void ldap_conn_budget(struct ldap_conn *conn)
{
	conn->lc_bytes = 0;
	conn->lc_entries = 0;
	conn->lc_why[0] = '\0';
}

/* Returns: the bytes of the message E as the server sent it. */
static size_t entry_bytes(LDAP *ld, LDAPMessage *e)
{
	struct berval dn = { 0 };
	BerElement *ber = NULL;
	ber_len_t len = 0;

	if (ldap_get_dn_ber(ld, e, &ber, &dn) == LDAP_SUCCESS && ber)
		ber_get_option(ber, LBER_OPT_BER_TOTAL_BYTES, &len);
	if (ber)
		ber_free(ber, 0);
	return len;
}

/* Returns: LDAP_SUCCESS, LDAP_ADMINLIMIT_EXCEEDED with lc_why set. */
static int conn_take(struct ldap_conn *conn, LDAPMessage *e)
{
	const struct ldap_limits *l = &conn->lc_limits;

	conn->lc_bytes += entry_bytes(conn->lc_ld, e);
	if (++conn->lc_entries > l->ll_entries)
		snprintf(conn->lc_why, sizeof(conn->lc_why),
			 "more than %lu entries ([ldap] max_entries), the answer is cut there",
			 l->ll_entries);
	else if (conn->lc_bytes > l->ll_bytes)
		snprintf(conn->lc_why, sizeof(conn->lc_why),
			 "more than %zu bytes ([ldap] max_bytes), the answer is cut there",
			 l->ll_bytes);
	return conn->lc_why[0] ? LDAP_ADMINLIMIT_EXCEEDED : LDAP_SUCCESS;
}

/*
 * Wait for the next message of search ID, until DEADLINE (am_now_ms()).
 * Returns: its type (*MSG set),
 * 0 when the operation's time is up, -1 with the error in RC.
 */
static int conn_next(struct ldap_conn *conn, int id, long long deadline,
		     LDAPMessage **msg, int *rc)
{
	long long ms = deadline - am_now_ms() > 0 ? deadline - am_now_ms() : 1;
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = ms % 1000 * 1000 };
	int type;

	*msg = NULL;
	errno = 0;
	type = ldap_result(conn->lc_ld, id, LDAP_MSG_ONE, &tv, msg);
	if (type < 0 && errno == ERANGE) {
		/* liblber refused a message longer than LBER_SB_OPT_SET_MAX_INCOMING */
		snprintf(conn->lc_why, sizeof(conn->lc_why),
			 "a message longer than %zu bytes ([ldap] max_bytes), not read",
			 conn->lc_limits.ll_bytes);
		conn->lc_broken = true;
		*rc = LDAP_ADMINLIMIT_EXCEEDED;
	} else if (type < 0) {
		*rc = LDAP_OTHER;
		ldap_get_option(conn->lc_ld, LDAP_OPT_RESULT_CODE, rc);
		if (*rc == LDAP_SUCCESS)
			*rc = LDAP_OTHER;
	}
	return type;
}

/* The search's final message: its code and controls (Q->lq_rctrls). */
static int conn_result(struct ldap_conn *conn, LDAPMessage *msg,
		       struct ldap_query *q)
{
	int rc, err = LDAP_OTHER;

	rc = ldap_parse_result(conn->lc_ld, msg, &err, NULL, NULL, NULL,
			       &q->lq_rctrls, 1);
	return rc == LDAP_SUCCESS ? err : rc;
}

/* Returns: LDAP_SUCCESS to read on, 1 when lq_entry stops, an LDAP error. */
static int conn_entry(struct ldap_conn *conn, LDAPMessage *msg,
		      struct ldap_query *q)
{
	int rc = conn_take(conn, msg);

	if (rc == LDAP_SUCCESS && q->lq_entry(msg, q->lq_arg))
		rc = 1;
	ldap_msgfree(msg);
	return rc;
}

/*
 * Run the search Q, each entry to Q->lq_entry as it arrives, the whole
 * answer within the connection's timeout and limits; what exceeds them is
 * abandoned, never read into memory.
 * Returns: the search's LDAP result code (Q->lq_rctrls set, to free),
 * LDAP_SUCCESS when lq_entry stopped it, LDAP_TIMEOUT, or
 * LDAP_ADMINLIMIT_EXCEEDED with lc_why saying which limit.
 */
int ldap_conn_search(struct ldap_conn *conn, struct ldap_query *q)
{
	struct timeval tv = { .tv_sec = conn->lc_timeout };
	long long deadline = am_now_ms() + conn->lc_timeout * 1000LL;
	LDAPMessage *msg;
	int id, type, rc;

	q->lq_rctrls = NULL;
	conn->lc_why[0] = '\0';
	rc = ldap_search_ext(conn->lc_ld, q->lq_base, q->lq_scope, q->lq_filter,
			     q->lq_attrs, 0, q->lq_ctrls, NULL, &tv,
			     q->lq_sizelimit, &id);
	if (rc != LDAP_SUCCESS)
		return rc;
	do {
		type = conn_next(conn, id, deadline, &msg, &rc);
		if (type == LDAP_RES_SEARCH_RESULT)
			return conn_result(conn, msg, q);
		if (type == LDAP_RES_SEARCH_ENTRY)
			rc = conn_entry(conn, msg, q);
		else if (type > 0)	/* a reference: referrals are not chased */
			ldap_msgfree(msg);
		else if (type == 0)
			rc = LDAP_TIMEOUT;
	} while (rc == LDAP_SUCCESS);
	if (type >= 0 && !conn->lc_broken)
		ldap_abandon_ext(conn->lc_ld, id, NULL, NULL);
	return rc == 1 ? LDAP_SUCCESS : rc;
}
