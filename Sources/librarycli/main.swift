print("librarycli")
