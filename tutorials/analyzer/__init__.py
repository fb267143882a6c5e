""""What happens here?": the position editor, its edit links, its page models, its views
and the short links to saved positions."""
