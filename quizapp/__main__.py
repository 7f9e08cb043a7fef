from quizapp.cli import main

raise SystemExit(main())
