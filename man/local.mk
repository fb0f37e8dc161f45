# man: rules are added with the code that lives here.
dist_man_MANS += man/autofsng.5
