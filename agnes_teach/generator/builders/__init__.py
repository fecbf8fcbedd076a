"""What every theme's builder shares (``layout``); each builder lives in its theme's module
(``agnes_teach.themes``, ``Theme.build``)."""
