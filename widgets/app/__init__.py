"""The app: the Voila server and its landing page, the dashboards' kernel and kernel pool, the page template,
and the manager of the compiled engine.
"""
