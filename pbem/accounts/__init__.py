"""What a player may do with their own account and an administrator with any:
take everything out (export), leave for good (deletion), be kept out for a
while (suspension). Above the leagues, since leaving withdraws league entries."""
