# man: manual pages of the agent.
dist_man_MANS += man/autofs-agent.8 man/autofs-agent.conf.5 man/autofs-maps.5
