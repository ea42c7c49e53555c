// Formats module
