#!/usr/bin/env python3
"""Compare what autofs-tools and autofsng would mount for the same keys.

  compare.py KEYS AT_LOG OURS_DIR DIFFERENCES

KEYS: lines "MOUNTPOINT KEY [OFFSET...]" (KEY may hold a blank: the offsets
start with '/').  AT_LOG: the output of `automount -f -d` while each
MOUNTPOINT/KEY[/OFFSET] was accessed in that order.  OURS_DIR/N.txt: the
output of `autofs test MOUNTPOINT KEY` for line N (from 1), ending with a
line "rc=N".  DIFFERENCES: lines "PATH<TAB>reason" for differences that
autofs-maps(5) documents.

Every mount (a key's root, each offset) is one comparison: the filesystem
type, the mount options as a set (fstype= aside), and the locations as a set
of (host, weight, path), or that both refuse it.  Prints one line per
comparison and ends with "N same, N documented, N unexplained".
"""
import re
import sys

SUN_MOUNT = re.compile(r'sun_mount: parse\(sun\): mounting root (\S+), mountpoint (.+?), '
                       r'what (.*), fstype (\S+), options (.*)$')
ATTEMPT = re.compile(r'attempting to mount entry (.+)$')


def split_host_list(text):
    """'h1(5),h2' -> [(h1, 5), (h2, 0)]: commas alone separate hosts."""
    hosts = []
    for h in filter(None, text.split(',')):
        m = re.match(r'^(.*)\((\d+)\)$', h)
        hosts.append((m.group(1), int(m.group(2))) if m else (h, 0))
    return hosts


def host_colon(loc):
    """Index of the ':' ending a host list (not inside [...]), or -1."""
    depth = 0
    for i, c in enumerate(loc):
        if c == '[':
            depth += 1
        elif c == ']':
            depth -= 1
        elif c == ':' and not depth:
            return i
        elif c == '/' and not depth:
            return -1
    return -1


def locations(words):
    """The locations of autofs-tools' "what", split on blanks.

    What autofs-tools 5.1.8 logs: blanks separate whole locations
    ("h1:/a h2:/b"), commas the hosts of one ("h1(5),h2:/a").  A blank
    inside a host list ("h1(5) h2:/a") never reaches the log: 5.1.8 refuses
    the entry ("validate_location: invalid character").  The log prints the
    path dequoted, so a word that is no location continues the path before
    it ("server:/a b" is the path "/a b").
    """
    groups = []
    for w in words:
        local = w.startswith(':') or w.startswith('/')
        i = -1 if local else host_colon(w)
        if i >= 0:
            groups.append([split_host_list(w[:i]), w[i + 1:]])
        elif groups and not local:
            groups[-1][1] += ' ' + w
        else:
            groups.append([[('-', 0)], w.lstrip(':')])
    return sorted((host, weight, path) for hosts, path in groups
                  for host, weight in hosts)


# Options where the later one of a pair wins, as mount(8) and the kernel read
# a list: autofs-tools appends an entry's options to the master map's,
# autofsng replaces the opposite option (autofs-maps(5)).
OPPOSITES = {'ro': 'rw', 'rw': 'ro', 'hard': 'soft', 'soft': 'hard'}


def option_name(o):
    name = o.split('=', 1)[0]
    if name in OPPOSITES:
        return min(name, OPPOSITES[name])
    return name[2:] if name.startswith('no') else name


def options(text):
    """The options a mount gets: fstype= aside, the last of a pair wins."""
    if text in ('(null)', '-', ''):
        return []
    last = {}
    for o in text.split(','):
        if o and not o.startswith('fstype='):
            last.pop(option_name(o), None)
            last[option_name(o)] = o
    return sorted(last.values())


def at_mounts(log_path):
    """PATH -> (fstype, options, locations) for each mount autofs-tools tried."""
    found, block = {}, None
    with open(log_path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = ATTEMPT.search(line)
            if m:
                block = m.group(1).rstrip('/')
                continue
            m = SUN_MOUNT.search(line)
            if not m or block is None:
                continue
            root, name, what, fstype, opts = m.groups()
            # a key: root and its name; a multi-mount's root: root ends in
            # '/'; an offset's trigger: the name is the whole path
            if name.startswith('/'):
                path = name
            elif root.endswith('/'):
                path = root.rstrip('/')
            else:
                path = root + '/' + name
            found.setdefault(path, (fstype, options(opts), locations(what.split())))
    return found


def our_mounts(text, base):
    """PATH -> (fstype, options, locations) from `autofs test` output."""
    found, cur = {}, None
    for line in text.splitlines():
        m = re.match(r'^mount (\S+): (\S+) via module .*, options (.*)$', line)
        if m:
            off, fstype, opts = m.groups()
            cur = base if off == '/' else base + off
            found[cur] = (fstype, options(opts), [])
            continue
        m = re.match(r'^  from (.*?)(?: \(weight (\d+)\))?$', line)
        if m and cur:
            loc, weight = m.group(1), int(m.group(2) or 0)
            i = host_colon(loc) if not loc.startswith('/') else -1
            entry = (loc[:i], weight, loc[i + 1:]) if i > 0 else ('-', 0, loc)
            found[cur][2].append(entry)
            found[cur][2].sort()
    return found


def read_keys(path):
    keys = []
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith('#'):
                continue
            words = line.split()
            mp, rest = words[0], words[1:]
            n = next((i for i, w in enumerate(rest) if w.startswith('/')), len(rest))
            keys.append((mp, ' '.join(rest[:n]), rest[n:]))
    return keys


def main(keys_path, at_log, ours_dir, diff_path):
    documented = {}
    with open(diff_path) as f:
        for line in f:
            if line.strip() and not line.startswith('#'):
                path, reason = line.rstrip('\n').split('\t', 1)
                documented[path] = reason
    at = at_mounts(at_log)
    same = doc = bad = 0
    for n, (mp, key, offsets) in enumerate(read_keys(keys_path), 1):
        with open('%s/%d.txt' % (ours_dir, n), errors='replace') as f:
            text = f.read()
        base = mp + '/' + key
        ours = our_mounts(text, base) if text.rstrip().endswith('rc=0') else {}
        for path in [base] + [base + o for o in offsets]:
            a, o = at.get(path, 'refused'), ours.get(path, 'refused')
            if a == o:
                same += 1
                print('same %s' % path)
            elif path in documented:
                doc += 1
                print('documented %s: %s' % (path, documented[path]))
            else:
                bad += 1
                print('UNEXPLAINED %s\n  autofs-tools %s\n  autofsng     %s' % (path, a, o))
    print('%d same, %d documented, %d unexplained' % (same, doc, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(*sys.argv[1:5]))
