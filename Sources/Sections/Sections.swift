// Sections module
