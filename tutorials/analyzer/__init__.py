""""What happens here?": the position editor, its page model, its views and the short
links to saved positions."""
