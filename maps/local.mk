# maps: rules are added with the code that lives here.
