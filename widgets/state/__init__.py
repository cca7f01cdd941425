"""Page state: the URL's parameters (a link that carries a view) and the drafts a page keeps of what a user typed.
"""
