// LibraryScreen module
