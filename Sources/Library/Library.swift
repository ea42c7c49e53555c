// Library module
