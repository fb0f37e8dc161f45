/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared between the files of map_ldap.so: the connection (ldap_conn.c),
 * the XML auth file (ldap_auth.c), filter and DN text (ldap_text.c),
 * schema detection and the map operations (ldap.c).
 */
#ifndef MAPS_LDAP_PRIV_H
#define MAPS_LDAP_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <ldap.h>

#include "am_module.h"

#define LDAP_LOG_PREFIX "ldap: "

/* Names of classes and attributes one map is stored with. */
struct ldap_schema {
	const char *ls_name;		/* "rfc2307bis", "rfc2307", "custom" */
	const char *ls_map_class;
	const char *ls_entry_class;
	const char *ls_map_attr;
	const char *ls_entry_attr;
	const char *ls_value_attr;
};

extern const struct ldap_schema ldap_schema_rfc2307bis;
extern const struct ldap_schema ldap_schema_rfc2307;

enum ldap_authreq {
	LA_BIND_ANON,			/* anonymous */
	LA_BIND_SIMPLE,		/* simple bind, user + secret */
	LA_BIND_SASL,			/* SASL mechanism la_mech */
};

/* The content of an autofs_ldap_auth.conf-shaped XML file. */
struct ldap_auth {
	bool la_usetls;
	bool la_tlsrequired;
	bool la_tlsnoverify;		/* tlsverify="no": any certificate */
	bool la_tlsfallback;		/* tlsfallback="yes": clear after StartTLS fails */
	enum ldap_authreq la_req;
	char *la_mech;			/* SASL mechanism, upper case */
	char *la_user;
	char *la_secret;
	char *la_clientprinc;
	char *la_ccache;
};

/*
 * What one server may make the agent read, whatever it is asked: a value,
 * and per lookup or listing the bytes of its messages, its entries and its
 * pages ([ldap] max_value_size, max_bytes, max_entries, max_pages).
 */
struct ldap_limits {
	size_t ll_value;
	size_t ll_bytes;
	unsigned long ll_entries;
	unsigned long ll_pages;
};

/* One connection to the first answering server of a URI list. */
struct ldap_conn {
	const struct am_host *lc_host;
	char **lc_uris;			/* NULL-terminated */
	const struct ldap_auth *lc_auth;
	int lc_net_timeout;		/* seconds, connect */
	int lc_timeout;			/* seconds, one operation */
	LDAP *lc_ld;			/* NULL while not connected */
	const char *lc_uri;		/* the URI lc_ld talks to */
	struct ldap_limits lc_limits;
	size_t lc_bytes;		/* read by this lookup or listing so far */
	unsigned long lc_entries;	/* entries of it so far */
	bool lc_broken;			/* lc_ld dropped by libldap, to close */
	char lc_why[160];		/* the limit a search exceeded, for its log line */
};

/*
 * One search, its answer handed to lq_entry one entry at a time as it
 * arrives, so that no more than the limits is ever held.
 */
struct ldap_query {
	const char *lq_base;
	int lq_scope;
	const char *lq_filter;
	char **lq_attrs;
	LDAPControl **lq_ctrls;		/* request controls, or NULL */
	int lq_sizelimit;		/* asked of the server; 0: its own */
	int (*lq_entry)(LDAPMessage *e, void *arg);	/* nonzero: stop */
	void *lq_arg;
	LDAPControl **lq_rctrls;	/* out: the result's controls */
};

/* ldap_conn.c */
int ldap_conn_open(struct ldap_conn *conn);
void ldap_conn_close(struct ldap_conn *conn);
int ldap_conn_error(struct ldap_conn *conn, int rc, const char *what);
void ldap_conn_budget(struct ldap_conn *conn);
int ldap_conn_search(struct ldap_conn *conn, struct ldap_query *q);

/* ldap_auth.c */
int ldap_auth_read(struct ldap_auth *auth, const char *path,
		   const struct am_host *host);
void ldap_auth_free(struct ldap_auth *auth);

/* ldap_text.c */
char *ldap_filter_escape(const char *value);
char *ldap_filter_eq(const char *cls, const char *attr, const char *value);
char *ldap_dn_value_unescape(const char *in, size_t len);
char *ldap_dn_first_value(const char *dn, const char *attr);
char **ldap_uri_split(const char *list);
void ldap_uri_free(char **uris);

#define ldap_log(host, prio, ...) \
	((host)->ah_log((host)->ah_ctx, (prio), LDAP_LOG_PREFIX __VA_ARGS__))

#endif /* MAPS_LDAP_PRIV_H */
