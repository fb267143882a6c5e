"""Captain Dice: the Django project package. The rules engine lives in `captain.rules`."""
