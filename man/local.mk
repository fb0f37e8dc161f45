# man: the pages, installed by make install.
dist_man_MANS += man/mountfd.2
dist_man_MANS += man/trapfs.5
