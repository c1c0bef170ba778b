"""The Discord front end (discord.py 2.7): the /domino command, buttons, private hands."""
