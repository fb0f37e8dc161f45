// SPDX-License-Identifier: GPL-2.0
/*
 * map_ldap.so: automount maps kept in a directory.  A map is named by its
 * DN ("ou=auto.home,dc=example,dc=org"), by a server and DN
 * ("//host/ou=auto.home,..."), or by its name under search_base
 * ("auto.home").  Its schema, rfc2307bis (automountMap/automount) or
 * rfc2307 (nisMap/nisObject), is read from the server's data unless the
 * configuration fixes it.  The backend only fetches entry text; the agent
 * parses it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <syslog.h>
#include <unistd.h>

#include "ldap_priv.h"

#define LDAP_PAGE_SIZE		500
#define LDAP_DEF_TIMEOUT	10
#define LDAP_DEF_NET_TIMEOUT	8
#define LDAP_DEF_AUTH_CONF	SYSCONFDIR "/autofs_ldap_auth.conf"

const struct ldap_schema ldap_schema_rfc2307bis = {
	.ls_name = "rfc2307bis",
	.ls_map_class = "automountMap",
	.ls_entry_class = "automount",
	.ls_map_attr = "automountMapName",
	.ls_entry_attr = "automountKey",
	.ls_value_attr = "automountInformation",
};

const struct ldap_schema ldap_schema_rfc2307 = {
	.ls_name = "rfc2307",
	.ls_map_class = "nisMap",
	.ls_entry_class = "nisObject",
	.ls_map_attr = "nisMapName",
	.ls_entry_attr = "cn",
	.ls_value_attr = "nisMapEntry",
};

static const struct ldap_schema *const ldap_schemas[] = {
	&ldap_schema_rfc2307bis, &ldap_schema_rfc2307, NULL,
};

struct am_map {
	const struct am_host *m_host;
	struct ldap_conn m_conn;
	struct ldap_auth m_auth;
	char *m_name;			/* as given, for messages */
	char *m_base;			/* DN of the map object */
	struct ldap_schema m_schema;
	const char *m_fixed[5];		/* attribute names from the config */
	bool m_schema_known;
	int m_timeout;
};

static const char *conf(struct am_map *map, const char *key)
{
	const struct am_host *h = map->m_host;
	const char *v = h->ah_conf_get(h->ah_ctx, "ldap", key);

	return v && *v ? v : NULL;
}

static int conf_int(struct am_map *map, const char *key, int def)
{
	const char *v = conf(map, key);
	char *end;
	long n;

	if (!v)
		return def;
	n = strtol(v, &end, 10);
	if (*end || n <= 0 || n > 3600) {
		ldap_log(map->m_host, LOG_WARNING,
			 "[ldap] %s = \"%s\" is not a number of seconds, using %d",
			 key, v, def);
		return def;
	}
	return (int)n;
}

/* ---- schema ---------------------------------------------------------- */

/* Base SCHEMA with every attribute the configuration names laid over it. */
static void schema_set(struct am_map *map, const struct ldap_schema *schema)
{
	const char **f = map->m_fixed;

	map->m_schema = *schema;
	if (f[0])
		map->m_schema.ls_map_class = f[0];
	if (f[1])
		map->m_schema.ls_entry_class = f[1];
	if (f[2])
		map->m_schema.ls_map_attr = f[2];
	if (f[3])
		map->m_schema.ls_entry_attr = f[3];
	if (f[4])
		map->m_schema.ls_value_attr = f[4];
	map->m_schema_known = true;
}

static int schema_conf(struct am_map *map)
{
	static const char *const keys[] = {
		"map_object_class", "entry_object_class", "map_attribute",
		"entry_attribute", "value_attribute",
	};
	const char *s = conf(map, "schema");
	size_t i;

	for (i = 0; i < 5; i++)
		map->m_fixed[i] = conf(map, keys[i]);
	if (!s || !strcasecmp(s, "auto"))
		return 0;
	if (!strcasecmp(s, "rfc2307bis"))
		schema_set(map, &ldap_schema_rfc2307bis);
	else if (!strcasecmp(s, "rfc2307"))
		schema_set(map, &ldap_schema_rfc2307);
	else {
		ldap_log(map->m_host, LOG_ERR,
			 "[ldap] schema = \"%s\" is not auto, rfc2307 or rfc2307bis", s);
		return -EINVAL;
	}
	return 0;
}

static bool entry_has_value(LDAP *ld, LDAPMessage *e, const char *attr,
			    const char *value)
{
	struct berval **vals = ldap_get_values_len(ld, e, attr);
	bool found = false;
	int i;

	for (i = 0; vals && vals[i]; i++)
		if (!strncasecmp(vals[i]->bv_val, value, vals[i]->bv_len) &&
		    strlen(value) == vals[i]->bv_len)
			found = true;
	ldap_value_free_len(vals);
	return found;
}

static int map_search(struct am_map *map, const char *base, int scope,
		      const char *filter, char **attrs, int sizelimit,
		      LDAPMessage **res)
{
	struct timeval tv = { .tv_sec = map->m_timeout };
	int rc;

	rc = ldap_search_ext_s(map->m_conn.lc_ld, base, scope, filter, attrs, 0,
			       NULL, NULL, &tv, sizelimit, res);
	if (rc == LDAP_SIZELIMIT_EXCEEDED && sizelimit)
		rc = LDAP_SUCCESS;
	if (rc != LDAP_SUCCESS) {
		ldap_msgfree(*res);
		*res = NULL;
	}
	return rc;
}

/* Returns: true when a one-level search finds an entry of SCHEMA's entry class. */
static bool schema_probe_entries(struct am_map *map, const struct ldap_schema *schema)
{
	char filter[128];
	char *attrs[] = { LDAP_NO_ATTRS, NULL };
	LDAPMessage *res = NULL;
	bool found;

	snprintf(filter, sizeof(filter), "(objectClass=%s)", schema->ls_entry_class);
	if (map_search(map, map->m_base, LDAP_SCOPE_ONELEVEL, filter, attrs, 1, &res))
		return false;
	found = ldap_count_entries(map->m_conn.lc_ld, res) > 0;
	ldap_msgfree(res);
	return found;
}

/*
 * The map object's own class says the schema; a plain container (an ou
 * holding entries) is told by the class of what it holds.
 */
static int schema_detect(struct am_map *map)
{
	char *attrs[] = { "objectClass", NULL };
	LDAP *ld = map->m_conn.lc_ld;
	LDAPMessage *res = NULL, *e;
	const struct ldap_schema *const *s;
	int rc;

	rc = map_search(map, map->m_base, LDAP_SCOPE_BASE, "(objectClass=*)",
			attrs, 0, &res);
	if (rc != LDAP_SUCCESS)
		return ldap_conn_error(&map->m_conn, rc, map->m_base);
	e = ldap_first_entry(ld, res);
	for (s = ldap_schemas; e && *s && !map->m_schema_known; s++)
		if (entry_has_value(ld, e, "objectClass", (*s)->ls_map_class))
			schema_set(map, *s);
	ldap_msgfree(res);
	for (s = ldap_schemas; *s && !map->m_schema_known; s++)
		if (schema_probe_entries(map, *s))
			schema_set(map, *s);
	if (!map->m_schema_known) {
		ldap_log(map->m_host, LOG_ERR,
			 "%s: %s holds neither automount nor nisObject entries; set [ldap] schema",
			 map->m_conn.lc_uri, map->m_base);
		return -ENOENT;
	}
	return 0;
}

/* ---- finding the map ------------------------------------------------- */

static char *search_base(struct am_map *map)
{
	const char *b = conf(map, "search_base");
	char *def = NULL, *attrs[] = { "namingContexts", NULL };
	LDAPMessage *res = NULL;
	struct berval **vals;

	if (b)
		return strdup(b);
	if (!ldap_get_option(NULL, LDAP_OPT_DEFBASE, &def) && def && *def) {
		b = def;
		def = strdup(b);
		ldap_memfree((char *)b);
		return def;
	}
	ldap_memfree(def);
	def = NULL;
	if (map_search(map, "", LDAP_SCOPE_BASE, "(objectClass=*)", attrs, 0, &res))
		return NULL;
	vals = ldap_get_values_len(map->m_conn.lc_ld,
				   ldap_first_entry(map->m_conn.lc_ld, res),
				   "namingContexts");
	if (vals && vals[0])
		def = strndup(vals[0]->bv_val, vals[0]->bv_len);
	ldap_value_free_len(vals);
	ldap_msgfree(res);
	return def;
}

/* Returns: 0 with m_base set when BASE holds the map in the current schema, -ENOENT, -errno. */
static int find_in_schema(struct am_map *map, const char *base)
{
	char *filter, *dn, *attrs[] = { LDAP_NO_ATTRS, NULL };
	LDAPMessage *res = NULL, *e;
	int rc, ret = -ENOENT;

	filter = ldap_filter_eq(map->m_schema.ls_map_class,
				map->m_schema.ls_map_attr, map->m_name);
	if (!filter)
		return -ENOMEM;
	rc = map_search(map, base, LDAP_SCOPE_SUBTREE, filter, attrs, 0, &res);
	free(filter);
	if (rc != LDAP_SUCCESS)
		return ldap_conn_error(&map->m_conn, rc, base);
	e = ldap_first_entry(map->m_conn.lc_ld, res);
	if (e) {
		dn = ldap_get_dn(map->m_conn.lc_ld, e);
		map->m_base = dn ? strdup(dn) : NULL;
		ldap_memfree(dn);
		ret = map->m_base ? 0 : -ENOMEM;
	}
	ldap_msgfree(res);
	return ret;
}

/* Find the map object named m_name under search_base, in each schema unless one is configured. */
static int map_find_by_name(struct am_map *map)
{
	const struct ldap_schema *const *s;
	char *base;
	int ret = -ENOENT;

	base = search_base(map);
	if (!base) {
		ldap_log(map->m_host, LOG_ERR,
			 "map %s: no [ldap] search_base and the server names no naming context",
			 map->m_name);
		return -EINVAL;
	}
	if (map->m_schema_known)
		ret = find_in_schema(map, base);
	else
		for (s = ldap_schemas; *s && ret == -ENOENT; s++) {
			schema_set(map, *s);
			ret = find_in_schema(map, base);
			if (ret)
				map->m_schema_known = false;
		}
	if (ret == -ENOENT)	/* usual while the agent walks its sources */
		ldap_log(map->m_host, LOG_NOTICE, "%s: no map \"%s\" under %s",
			 map->m_conn.lc_uri, map->m_name, base);
	free(base);
	return ret;
}

/*
 * Split "//host[:port]/dn" or "ldap[s|i]://host/dn" into a server URI
 * and DN.  Returns: 0 (*URI NULL when NAME names no server), -EINVAL, -ENOMEM.
 */
static int name_split(struct am_map *map, const char *name, char **uri, char **dn)
{
	const char *scheme = "ldap:", *rest = name, *slash;
	static const char *const schemes[] = { "ldap:", "ldaps:", "ldapi:", NULL };
	size_t i;

	*uri = NULL;
	*dn = NULL;
	for (i = 0; schemes[i]; i++)
		if (!strncasecmp(name, schemes[i], strlen(schemes[i])) &&
		    !strncmp(name + strlen(schemes[i]), "//", 2)) {
			scheme = schemes[i];
			rest = name + strlen(schemes[i]);
		}
	if (strncmp(rest, "//", 2))
		return (*dn = strdup(name)) ? 0 : -ENOMEM;
	slash = strchr(rest + 2, '/');
	if (!slash || !slash[1]) {
		ldap_log(map->m_host, LOG_ERR,
			 "map \"%s\": a server must be followed by /DN", name);
		return -EINVAL;
	}
	if (asprintf(uri, "%s%.*s", scheme, (int)(slash - rest), rest) < 0) {
		*uri = NULL;
		return -ENOMEM;
	}
	*dn = strdup(slash + 1);
	return *dn ? 0 : -ENOMEM;
}

static int map_uris(struct am_map *map, char *name_uri)
{
	const char *list = conf(map, "uri");
	char *def = NULL;

	if (name_uri) {
		map->m_conn.lc_uris = calloc(2, sizeof(char *));
		if (!map->m_conn.lc_uris)
			return -ENOMEM;
		map->m_conn.lc_uris[0] = name_uri;
		return 0;
	}
	if (!list && !ldap_get_option(NULL, LDAP_OPT_URI, &def) && def)
		list = def;
	if (!list) {
		ldap_log(map->m_host, LOG_ERR,
			 "map %s: no server, set [ldap] uri or URI in ldap.conf",
			 map->m_name);
		return -EINVAL;
	}
	map->m_conn.lc_uris = ldap_uri_split(list);
	ldap_memfree(def);
	return map->m_conn.lc_uris ? 0 : -ENOMEM;
}

static int map_auth(struct am_map *map)
{
	const char *path = conf(map, "auth_conf");

	if (!path) {
		path = LDAP_DEF_AUTH_CONF;
		if (access(path, F_OK))
			return 0;	/* no file: anonymous, no TLS */
	}
	return ldap_auth_read(&map->m_auth, path, map->m_host);
}

/* ---- operations ------------------------------------------------------- */

static void ldap_map_close(struct am_map *map)
{
	if (!map)
		return;
	ldap_conn_close(&map->m_conn);
	ldap_uri_free(map->m_conn.lc_uris);
	ldap_auth_free(&map->m_auth);
	free(map->m_name);
	free(map->m_base);
	free(map);
}

static int ldap_map_setup(struct am_map *map, const char *name)
{
	char *uri, *dn;
	int ret;

	ret = schema_conf(map);
	if (!ret)
		ret = map_auth(map);
	if (!ret)
		ret = name_split(map, name, &uri, &dn);
	if (ret)
		return ret;
	ret = map_uris(map, uri);
	if (ret) {
		free(uri);
		free(dn);
		return ret;
	}
	if (strchr(dn, '='))
		map->m_base = dn;
	else
		free(dn);
	map->m_timeout = conf_int(map, "timeout", LDAP_DEF_TIMEOUT);
	map->m_conn.lc_timeout = map->m_timeout;
	map->m_conn.lc_net_timeout = conf_int(map, "network_timeout",
					      LDAP_DEF_NET_TIMEOUT);
	ret = ldap_conn_open(&map->m_conn);
	if (ret)
		return ret;
	if (!map->m_base)
		return map_find_by_name(map);
	return schema_detect(map);
}

static int ldap_map_open(struct am_map **mapp, const struct am_map_args *args)
{
	struct am_map *map;
	int ret;

	map = calloc(1, sizeof(*map));
	if (!map)
		return -ENOMEM;
	map->m_host = args->ma_host;
	map->m_conn.lc_host = args->ma_host;
	map->m_conn.lc_auth = &map->m_auth;
	map->m_name = strdup(args->ma_name);
	if (!map->m_name) {
		free(map);
		return -ENOMEM;
	}
	ret = ldap_map_setup(map, args->ma_name);
	if (ret) {
		ldap_map_close(map);
		return ret;
	}
	*mapp = map;
	return 0;
}

/* Reconnect once when the server went away since the map was opened. */
static int map_connected(struct am_map *map)
{
	return ldap_conn_open(&map->m_conn);
}

/* The wildcard is stored as "*" or as "/"; both read back as "*". */
static bool key_is_wildcard(const char *key, size_t len)
{
	return len == 1 && (key[0] == '*' || key[0] == '/');
}

static char *lookup_filter(struct am_map *map, const char *key)
{
	const struct ldap_schema *s = &map->m_schema;
	char *out;

	if (strcmp(key, "*"))
		return ldap_filter_eq(s->ls_entry_class, s->ls_entry_attr, key);
	if (asprintf(&out, "(&(objectClass=%s)(|(%s=\\2a)(%s=/)))",
		     s->ls_entry_class, s->ls_entry_attr, s->ls_entry_attr) < 0)
		return NULL;
	return out;
}

/* Returns: true when E has KEY exactly (keys are case-sensitive even where the attribute is not). */
static bool entry_matches(struct am_map *map, LDAPMessage *e, const char *key)
{
	struct berval **vals;
	bool wild = !strcmp(key, "*"), found = false;
	int i;

	vals = ldap_get_values_len(map->m_conn.lc_ld, e, map->m_schema.ls_entry_attr);
	for (i = 0; vals && vals[i] && !found; i++) {
		if (wild)
			found = key_is_wildcard(vals[i]->bv_val, vals[i]->bv_len);
		else
			found = vals[i]->bv_len == strlen(key) &&
				!memcmp(vals[i]->bv_val, key, vals[i]->bv_len);
	}
	ldap_value_free_len(vals);
	return found;
}

static int entry_value(struct am_map *map, LDAPMessage *e, char **entry)
{
	struct berval **vals;

	vals = ldap_get_values_len(map->m_conn.lc_ld, e, map->m_schema.ls_value_attr);
	if (!vals || !vals[0]) {
		char *dn = ldap_get_dn(map->m_conn.lc_ld, e);

		ldap_log(map->m_host, LOG_WARNING, "%s: %s has no %s, skipped",
			 map->m_conn.lc_uri, dn ? dn : "?", map->m_schema.ls_value_attr);
		ldap_memfree(dn);
		ldap_value_free_len(vals);
		return -ENOENT;
	}
	*entry = strndup(vals[0]->bv_val, vals[0]->bv_len);
	ldap_value_free_len(vals);
	return *entry ? 0 : -ENOMEM;
}

static int lookup_once(struct am_map *map, const char *filter, const char *key,
		       char **entry)
{
	char *attrs[] = { (char *)map->m_schema.ls_entry_attr,
			  (char *)map->m_schema.ls_value_attr, NULL };
	LDAPMessage *res = NULL, *e;
	int rc, ret = -ENOENT;

	rc = map_search(map, map->m_base, LDAP_SCOPE_SUBTREE, filter, attrs, 0, &res);
	if (rc != LDAP_SUCCESS)
		return ldap_conn_error(&map->m_conn, rc, map->m_base);
	for (e = ldap_first_entry(map->m_conn.lc_ld, res); e && ret == -ENOENT;
	     e = ldap_next_entry(map->m_conn.lc_ld, e))
		if (entry_matches(map, e, key))
			ret = entry_value(map, e, entry);
	ldap_msgfree(res);
	return ret;
}

static int ldap_map_lookup(struct am_map *map, const char *key, char **entry)
{
	char *filter;
	int ret;

	filter = lookup_filter(map, key);
	if (!filter)
		return -ENOMEM;
	ret = map_connected(map);
	if (!ret) {
		ret = lookup_once(map, filter, key, entry);
		/* the server went away since the last call: the list once more */
		if (ret == -EAGAIN && map_connected(map) == 0)
			ret = lookup_once(map, filter, key, entry);
	}
	free(filter);
	return ret;
}

/* ---- enumerate: paged, since servers cap one answer (500 by default) --- */

struct enum_state {
	am_key_fn es_fn;
	void *es_arg;
	struct berval *es_cookie;
	int es_stop;
};

static char *entry_key(struct am_map *map, LDAPMessage *e)
{
	struct berval **vals;
	char *key = NULL, *dn;

	vals = ldap_get_values_len(map->m_conn.lc_ld, e, map->m_schema.ls_entry_attr);
	if (vals && vals[0])
		key = strndup(vals[0]->bv_val, vals[0]->bv_len);
	ldap_value_free_len(vals);
	if (key)
		return key;
	/* some sites leave the key only in the RDN */
	dn = ldap_get_dn(map->m_conn.lc_ld, e);
	if (dn)
		key = ldap_dn_first_value(dn, map->m_schema.ls_entry_attr);
	ldap_memfree(dn);
	return key;
}

static int enum_entries(struct am_map *map, LDAPMessage *res, struct enum_state *st)
{
	LDAPMessage *e;
	char *key, *value;

	for (e = ldap_first_entry(map->m_conn.lc_ld, res); e && !st->es_stop;
	     e = ldap_next_entry(map->m_conn.lc_ld, e)) {
		key = entry_key(map, e);
		if (!key)
			continue;
		if (entry_value(map, e, &value) == 0) {
			st->es_stop = st->es_fn(key_is_wildcard(key, strlen(key)) ?
						"*" : key, value, st->es_arg);
			free(value);
		}
		free(key);
	}
	return 0;
}

static int enum_page(struct am_map *map, const char *filter, struct enum_state *st)
{
	LDAP *ld = map->m_conn.lc_ld;
	char *attrs[] = { (char *)map->m_schema.ls_entry_attr,
			  (char *)map->m_schema.ls_value_attr, NULL };
	struct timeval tv = { .tv_sec = map->m_timeout };
	LDAPControl *page = NULL, *ctrls[2] = { NULL, NULL }, **rctrls = NULL, *pr;
	LDAPMessage *res = NULL;
	ber_int_t total;
	int rc, err = LDAP_SUCCESS;

	rc = ldap_create_page_control(ld, LDAP_PAGE_SIZE, st->es_cookie, 0, &page);
	if (rc != LDAP_SUCCESS)
		return ldap_conn_error(&map->m_conn, rc, "paged results control");
	ctrls[0] = page;
	rc = ldap_search_ext_s(ld, map->m_base, LDAP_SCOPE_SUBTREE, filter, attrs,
			       0, ctrls, NULL, &tv, 0, &res);
	ldap_control_free(page);
	if (rc == LDAP_SUCCESS || rc == LDAP_SIZELIMIT_EXCEEDED)
		rc = ldap_parse_result(ld, res, &err, NULL, NULL, NULL, &rctrls, 0);
	if (rc == LDAP_SUCCESS)
		rc = err;
	if (rc != LDAP_SUCCESS) {
		ldap_msgfree(res);
		ldap_controls_free(rctrls);
		if (rc == LDAP_SIZELIMIT_EXCEEDED)
			ldap_log(map->m_host, LOG_ERR,
				 "%s: %s: the server caps the answer and ignores paging; the map cannot be listed in full",
				 map->m_conn.lc_uri, map->m_base);
		return ldap_conn_error(&map->m_conn, rc, map->m_base);
	}
	enum_entries(map, res, st);
	ldap_msgfree(res);
	ber_bvfree(st->es_cookie);
	st->es_cookie = NULL;
	pr = ldap_control_find(LDAP_CONTROL_PAGEDRESULTS, rctrls, NULL);
	if (pr) {
		st->es_cookie = ber_memcalloc(1, sizeof(*st->es_cookie));
		if (!st->es_cookie ||
		    ldap_parse_pageresponse_control(ld, pr, &total, st->es_cookie)) {
			ldap_controls_free(rctrls);
			return -EIO;
		}
	}
	ldap_controls_free(rctrls);
	return 0;
}

static int ldap_map_enumerate(struct am_map *map, am_key_fn fn, void *arg)
{
	struct enum_state st = { .es_fn = fn, .es_arg = arg };
	char *filter;
	int ret;

	ret = map_connected(map);
	if (ret)
		return ret;
	filter = ldap_filter_eq(map->m_schema.ls_entry_class, NULL, NULL);
	if (!filter)
		return -ENOMEM;
	do {
		ret = enum_page(map, filter, &st);
	} while (!ret && !st.es_stop && st.es_cookie && st.es_cookie->bv_len);
	ber_bvfree(st.es_cookie);
	free(filter);
	return ret ? ret : st.es_stop;
}

AM_MAP_MODULE(ldap) = {
	.abi = AM_MAP_ABI,
	.size = sizeof(struct am_map_ops),
	.name = "ldap",
	.open = ldap_map_open,
	.lookup = ldap_map_lookup,
	.enumerate = ldap_map_enumerate,
	.close = ldap_map_close,
};
