# man: the pages, installed by make install.
dist_man_MANS += man/mountfd.2
dist_man_MANS += man/trapfs.5
dist_man_MANS += man/autofs-agent.8 man/autofs-agent.conf.5 man/autofs-maps.5
dist_man_MANS += man/autofsng.5
