"""Per rule set: tab layouts, scenarios and example files, shipped as package data.

Read them with `importlib.resources.files("templates")`, never through a path in the source tree.
"""
