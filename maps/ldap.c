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
/* a map file line may be 64 KiB (AM_LINE_MAX): so may one value */
#define LDAP_DEF_MAX_VALUE	65536UL
#define LDAP_DEF_MAX_BYTES	(64UL << 20)
#define LDAP_DEF_MAX_ENTRIES	200000UL
#define LDAP_DEF_MAX_PAGES	1000UL
/*
 * slapd and AD fill every page but the last: a page with no entry that
 * still asks for another is a server going round in circles.
 */
#define LDAP_EMPTY_PAGES_MAX	4

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
	/* a snapshot: an entry refused is asked, and said, by its own lookup */
	bool m_quiet;
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

/* Returns: [ldap] KEY as a count from 1 to MAX, DEF when absent or wrong (logged). */
static unsigned long conf_count(struct am_map *map, const char *key,
				unsigned long def, unsigned long max)
{
	const char *v = conf(map, key);
	unsigned long n;
	char *end;

	if (!v)
		return def;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (*end || errno || *v == '-' || n == 0 || n > max) {
		ldap_log(map->m_host, LOG_WARNING,
			 "[ldap] %s = \"%s\" is not a number from 1 to %lu, using %lu",
			 key, v, max, def);
		return def;
	}
	return n;
}

static void conf_limits(struct am_map *map)
{
	struct ldap_limits *l = &map->m_conn.lc_limits;

	l->ll_value = conf_count(map, "max_value_size", LDAP_DEF_MAX_VALUE,
				 1UL << 30);
	l->ll_bytes = conf_count(map, "max_bytes", LDAP_DEF_MAX_BYTES, 1UL << 31);
	l->ll_entries = conf_count(map, "max_entries", LDAP_DEF_MAX_ENTRIES,
				   100000000UL);
	l->ll_pages = conf_count(map, "max_pages", LDAP_DEF_MAX_PAGES, 1000000UL);
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

/*
 * Search under BASE, each entry to FN(E, ARG) as it arrives (nonzero stops
 * the search), within the connection's limits.  The SIZELIMIT a caller
 * asks for is met, not an error.  Returns: an LDAP result code.
 */
static int map_search(struct am_map *map, const char *base, int scope,
		      const char *filter, char **attrs, int sizelimit,
		      int (*fn)(LDAPMessage *e, void *arg), void *arg)
{
	struct ldap_query q = {
		.lq_base = base, .lq_scope = scope, .lq_filter = filter,
		.lq_attrs = attrs, .lq_sizelimit = sizelimit,
		.lq_entry = fn, .lq_arg = arg,
	};
	int rc;

	rc = ldap_conn_search(&map->m_conn, &q);
	ldap_controls_free(q.lq_rctrls);
	if (rc == LDAP_SIZELIMIT_EXCEEDED && sizelimit)
		rc = LDAP_SUCCESS;
	return rc;
}

static int entry_found(LDAPMessage *e, void *arg)
{
	(void)e;
	*(bool *)arg = true;
	return 1;
}

/* Returns: true when a one-level search finds an entry of SCHEMA's entry class. */
static bool schema_probe_entries(struct am_map *map, const struct ldap_schema *schema)
{
	char filter[128];
	char *attrs[] = { LDAP_NO_ATTRS, NULL };
	bool found = false;

	snprintf(filter, sizeof(filter), "(objectClass=%s)", schema->ls_entry_class);
	map_search(map, map->m_base, LDAP_SCOPE_ONELEVEL, filter, attrs, 1,
		   entry_found, &found);
	return found;
}

static int schema_from_class(LDAPMessage *e, void *arg)
{
	struct am_map *map = arg;
	const struct ldap_schema *const *s;

	for (s = ldap_schemas; *s && !map->m_schema_known; s++)
		if (entry_has_value(map->m_conn.lc_ld, e, "objectClass",
				    (*s)->ls_map_class))
			schema_set(map, *s);
	return 1;
}

/*
 * The map object's own class says the schema; a plain container (an ou
 * holding entries) is told by the class of what it holds.
 */
static int schema_detect(struct am_map *map)
{
	char *attrs[] = { "objectClass", NULL };
	const struct ldap_schema *const *s;
	int rc;

	rc = map_search(map, map->m_base, LDAP_SCOPE_BASE, "(objectClass=*)",
			attrs, 0, schema_from_class, map);
	if (rc != LDAP_SUCCESS)
		return ldap_conn_error(&map->m_conn, rc, map->m_base);
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

struct first_value {
	struct am_map *fv_map;
	const char *fv_attr;
	char *fv_value;
};

static int first_value(LDAPMessage *e, void *arg)
{
	struct first_value *fv = arg;
	struct berval **vals;

	vals = ldap_get_values_len(fv->fv_map->m_conn.lc_ld, e, fv->fv_attr);
	if (vals && vals[0])
		fv->fv_value = strndup(vals[0]->bv_val, vals[0]->bv_len);
	ldap_value_free_len(vals);
	return 1;
}

static char *search_base(struct am_map *map)
{
	const char *b = conf(map, "search_base");
	struct first_value fv = { .fv_map = map, .fv_attr = "namingContexts" };
	char *def = NULL, *attrs[] = { "namingContexts", NULL };

	if (b)
		return strdup(b);
	if (!ldap_get_option(NULL, LDAP_OPT_DEFBASE, &def) && def && *def) {
		b = def;
		def = strdup(b);
		ldap_memfree((char *)b);
		return def;
	}
	ldap_memfree(def);
	map_search(map, "", LDAP_SCOPE_BASE, "(objectClass=*)", attrs, 0,
		   first_value, &fv);
	return fv.fv_value;
}

struct found_dn {
	LDAP *fd_ld;
	bool fd_found;
	char *fd_dn;
};

static int entry_dn(LDAPMessage *e, void *arg)
{
	struct found_dn *fd = arg;
	char *dn = ldap_get_dn(fd->fd_ld, e);

	fd->fd_found = true;
	fd->fd_dn = dn ? strdup(dn) : NULL;
	ldap_memfree(dn);
	return 1;
}

/* Returns: 0 with m_base set when BASE holds the map in the current schema, -ENOENT, -errno. */
static int find_in_schema(struct am_map *map, const char *base)
{
	struct found_dn fd = { .fd_ld = map->m_conn.lc_ld };
	char *filter, *attrs[] = { LDAP_NO_ATTRS, NULL };
	int rc;

	filter = ldap_filter_eq(map->m_schema.ls_map_class,
				map->m_schema.ls_map_attr, map->m_name);
	if (!filter)
		return -ENOMEM;
	rc = map_search(map, base, LDAP_SCOPE_SUBTREE, filter, attrs, 0,
			entry_dn, &fd);
	free(filter);
	if (rc != LDAP_SUCCESS) {
		free(fd.fd_dn);
		return ldap_conn_error(&map->m_conn, rc, base);
	}
	if (!fd.fd_found)
		return -ENOENT;
	map->m_base = fd.fd_dn;
	return map->m_base ? 0 : -ENOMEM;
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
	conf_limits(map);
	ldap_conn_budget(&map->m_conn);
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

/*
 * Returns: 0, -EFBIG when a key or value of E, LEN bytes of ATTR, is longer
 * than [ldap] max_value_size (logged: only that entry is refused).
 */
static int value_fits(struct am_map *map, LDAPMessage *e, const char *attr,
		      size_t len)
{
	size_t max = map->m_conn.lc_limits.ll_value;
	char *dn;

	if (len <= max)
		return 0;
	if (map->m_quiet)
		return -EFBIG;
	dn = ldap_get_dn(map->m_conn.lc_ld, e);
	ldap_log(map->m_host, LOG_ERR,
		 "%s: %s: %s of %zu bytes is longer than %zu ([ldap] max_value_size), entry refused",
		 map->m_conn.lc_uri, dn ? dn : "?", attr, len, max);
	ldap_memfree(dn);
	return -EFBIG;
}

static int entry_value(struct am_map *map, LDAPMessage *e, char **entry)
{
	const char *attr = map->m_schema.ls_value_attr;
	struct berval **vals;
	int ret;

	vals = ldap_get_values_len(map->m_conn.lc_ld, e, attr);
	if ((!vals || !vals[0]) && map->m_quiet) {
		ldap_value_free_len(vals);
		return -ENOENT;
	}
	if (!vals || !vals[0]) {
		char *dn = ldap_get_dn(map->m_conn.lc_ld, e);

		ldap_log(map->m_host, LOG_WARNING, "%s: %s has no %s, skipped",
			 map->m_conn.lc_uri, dn ? dn : "?", attr);
		ldap_memfree(dn);
		ldap_value_free_len(vals);
		return -ENOENT;
	}
	ret = value_fits(map, e, attr, vals[0]->bv_len);
	if (!ret) {
		*entry = strndup(vals[0]->bv_val, vals[0]->bv_len);
		ret = *entry ? 0 : -ENOMEM;
	}
	ldap_value_free_len(vals);
	return ret;
}

struct lookup_state {
	struct am_map *lk_map;
	const char *lk_key;
	char **lk_entry;
	int lk_ret;
};

static int lookup_entry(LDAPMessage *e, void *arg)
{
	struct lookup_state *lk = arg;

	if (!entry_matches(lk->lk_map, e, lk->lk_key))
		return 0;
	lk->lk_ret = entry_value(lk->lk_map, e, lk->lk_entry);
	return lk->lk_ret != -ENOENT;
}

static int lookup_once(struct am_map *map, const char *filter, const char *key,
		       char **entry)
{
	char *attrs[] = { (char *)map->m_schema.ls_entry_attr,
			  (char *)map->m_schema.ls_value_attr, NULL };
	struct lookup_state lk = {
		.lk_map = map, .lk_key = key, .lk_entry = entry, .lk_ret = -ENOENT,
	};
	int rc;

	ldap_conn_budget(&map->m_conn);
	rc = map_search(map, map->m_base, LDAP_SCOPE_SUBTREE, filter, attrs, 0,
			lookup_entry, &lk);
	if (rc != LDAP_SUCCESS)
		return ldap_conn_error(&map->m_conn, rc, map->m_base);
	return lk.lk_ret;
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
	struct am_map *es_map;
	am_key_fn es_fn;
	void *es_arg;
	struct berval *es_cookie;
	int es_stop;
	unsigned long es_pages;		/* pages read */
	unsigned long es_got;		/* entries of the last page */
	int es_empty;			/* pages in a row with no entry */
	bool es_snapshot;		/* every key a lookup matches (->snapshot) */
};

static char *entry_key(struct am_map *map, LDAPMessage *e)
{
	const char *attr = map->m_schema.ls_entry_attr;
	struct berval **vals;
	char *key = NULL, *dn;
	bool has = false;

	vals = ldap_get_values_len(map->m_conn.lc_ld, e, attr);
	if (vals && vals[0]) {
		has = true;
		if (!value_fits(map, e, attr, vals[0]->bv_len))
			key = strndup(vals[0]->bv_val, vals[0]->bv_len);
	}
	ldap_value_free_len(vals);
	if (has)
		return key;
	/* some sites leave the key only in the RDN */
	dn = ldap_get_dn(map->m_conn.lc_ld, e);
	if (dn)
		key = ldap_dn_first_value(dn, attr);
	ldap_memfree(dn);
	if (key && value_fits(map, e, attr, strlen(key))) {
		free(key);
		key = NULL;
	}
	return key;
}

/*
 * For the agent's cache: E under each value of its key attribute, as
 * entry_matches() finds it, with the entry lookup_entry() would give (NULL
 * where that lookup refuses it).  A value with a NUL byte matches no key.
 */
static int snapshot_entry(struct enum_state *st, LDAPMessage *e)
{
	struct am_map *map = st->es_map;
	struct berval **vals;
	char *key, *value = NULL;
	int got, i;

	vals = ldap_get_values_len(map->m_conn.lc_ld, e, map->m_schema.ls_entry_attr);
	got = vals && vals[0] ? entry_value(map, e, &value) : -ENOENT;
	if (got == -ENOMEM)
		st->es_stop = -ENOMEM;
	for (i = 0; got != -ENOENT && !st->es_stop && vals[i]; i++) {
		if (memchr(vals[i]->bv_val, '\0', vals[i]->bv_len))
			continue;
		key = key_is_wildcard(vals[i]->bv_val, vals[i]->bv_len) ? strdup("*") :
			strndup(vals[i]->bv_val, vals[i]->bv_len);
		st->es_stop = key ? st->es_fn(key, got ? NULL : value, st->es_arg) : -ENOMEM;
		free(key);
	}
	ldap_value_free_len(vals);
	free(value);
	return st->es_stop;
}

static int enum_entry(LDAPMessage *e, void *arg)
{
	struct enum_state *st = arg;
	struct am_map *map = st->es_map;
	char *key, *value;

	st->es_got++;
	if (st->es_snapshot)
		return snapshot_entry(st, e);
	key = entry_key(map, e);
	if (!key)
		return 0;
	if (entry_value(map, e, &value) == 0) {
		st->es_stop = st->es_fn(key_is_wildcard(key, strlen(key)) ?
					"*" : key, value, st->es_arg);
		free(value);
	}
	free(key);
	return st->es_stop;
}

/* Returns: 0 with es_cookie set to the page response's cookie (or NULL), -EIO. */
static int enum_cookie(struct am_map *map, LDAPControl **rctrls,
		       struct enum_state *st)
{
	LDAPControl *pr;
	ber_int_t total;

	ber_bvfree(st->es_cookie);
	st->es_cookie = NULL;
	pr = ldap_control_find(LDAP_CONTROL_PAGEDRESULTS, rctrls, NULL);
	if (!pr)
		return 0;
	st->es_cookie = ber_memcalloc(1, sizeof(*st->es_cookie));
	if (!st->es_cookie ||
	    ldap_parse_pageresponse_control(map->m_conn.lc_ld, pr, &total,
					    st->es_cookie))
		return -EIO;
	return 0;
}

static int enum_page(struct am_map *map, const char *filter, struct enum_state *st)
{
	char *attrs[] = { (char *)map->m_schema.ls_entry_attr,
			  (char *)map->m_schema.ls_value_attr, NULL };
	LDAPControl *page = NULL, *ctrls[2] = { NULL, NULL };
	struct ldap_query q = {
		.lq_base = map->m_base, .lq_scope = LDAP_SCOPE_SUBTREE,
		.lq_filter = filter, .lq_attrs = attrs, .lq_ctrls = ctrls,
		.lq_entry = enum_entry, .lq_arg = st,
	};
	int rc, ret;

	rc = ldap_create_page_control(map->m_conn.lc_ld, LDAP_PAGE_SIZE,
				      st->es_cookie, 0, &page);
	if (rc != LDAP_SUCCESS)
		return ldap_conn_error(&map->m_conn, rc, "paged results control");
	ctrls[0] = page;
	st->es_got = 0;
	rc = ldap_conn_search(&map->m_conn, &q);
	ldap_control_free(page);
	if (rc != LDAP_SUCCESS) {
		ldap_controls_free(q.lq_rctrls);
		if (rc == LDAP_SIZELIMIT_EXCEEDED)
			ldap_log(map->m_host, LOG_ERR,
				 "%s: %s: the server caps the answer and ignores paging; the map cannot be listed in full",
				 map->m_conn.lc_uri, map->m_base);
		return ldap_conn_error(&map->m_conn, rc, map->m_base);
	}
	ret = st->es_stop ? 0 : enum_cookie(map, q.lq_rctrls, st);
	ldap_controls_free(q.lq_rctrls);
	return ret;
}

/*
 * A server that keeps sending a paging cookie would keep the agent asking
 * until its alarm: after max_pages pages, or a few empty ones in a row,
 * the listing ends.  Returns: 0 to ask for the next page, -EFBIG (logged).
 */
static int enum_page_bound(struct am_map *map, struct enum_state *st)
{
	unsigned long max = map->m_conn.lc_limits.ll_pages;
	char why[96];

	st->es_empty = st->es_got ? 0 : st->es_empty + 1;
	if (++st->es_pages >= max)
		snprintf(why, sizeof(why), "more than %lu pages ([ldap] max_pages)",
			 max);
	else if (st->es_empty >= LDAP_EMPTY_PAGES_MAX)
		snprintf(why, sizeof(why), "%d pages in a row with no entry",
			 st->es_empty);
	else
		return 0;
	ldap_log(map->m_host, LOG_ERR,
		 "%s: %s: %s and still a paging cookie, the listing is cut there",
		 map->m_conn.lc_uri, map->m_base, why);
	return -EFBIG;
}

static bool enum_more(const struct enum_state *st)
{
	return !st->es_stop && st->es_cookie && st->es_cookie->bv_len;
}

/* Every entry of the map to ST's function, a page at a time. */
static int enum_all(struct am_map *map, struct enum_state *st)
{
	char *filter;
	int ret;

	ret = map_connected(map);
	if (ret)
		return ret;
	filter = ldap_filter_eq(map->m_schema.ls_entry_class, NULL, NULL);
	if (!filter)
		return -ENOMEM;
	ldap_conn_budget(&map->m_conn);
	do {
		ret = enum_page(map, filter, st);
		if (!ret && enum_more(st))
			ret = enum_page_bound(map, st);
	} while (!ret && enum_more(st));
	ber_bvfree(st->es_cookie);
	free(filter);
	return ret ? ret : st->es_stop;
}

static int ldap_map_enumerate(struct am_map *map, am_key_fn fn, void *arg)
{
	struct enum_state st = { .es_map = map, .es_fn = fn, .es_arg = arg };

	return enum_all(map, &st);
}

static int ldap_map_snapshot(struct am_map *map, am_key_fn fn, void *arg)
{
	struct enum_state st = {
		.es_map = map, .es_fn = fn, .es_arg = arg, .es_snapshot = true,
	};
	int ret;

	map->m_quiet = true;
	ret = enum_all(map, &st);
	map->m_quiet = false;
	return ret;
}

AM_MAP_MODULE(ldap) = {
	.abi = AM_MAP_ABI,
	.size = sizeof(struct am_map_ops),
	.name = "ldap",
	.open = ldap_map_open,
	.lookup = ldap_map_lookup,
	.enumerate = ldap_map_enumerate,
	.close = ldap_map_close,
	.snapshot = ldap_map_snapshot,
};
