from sheet_app.cli import main

raise SystemExit(main())
