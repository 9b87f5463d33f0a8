"""The screens of the throneroom app."""
