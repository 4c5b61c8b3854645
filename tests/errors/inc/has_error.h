#error "configuration not supported"
