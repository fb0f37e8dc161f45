# man: the pages, installed by make install.
dist_man_MANS += man/mountfd.2
