"""python -m mqsh"""

from mqsh.cli import main

raise SystemExit(main())
