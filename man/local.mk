# man: rules are added with the code that lives here.
dist_man_MANS += man/trapfs.5
