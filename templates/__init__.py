"""Jinja2 templates of the worksheet and the guide (installed as agnes_teach.templates)."""
