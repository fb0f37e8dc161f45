# test/integration: rules are added with the code that lives here.
