// Seeding module
