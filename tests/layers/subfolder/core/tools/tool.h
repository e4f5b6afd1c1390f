// Between core/calendar and core/calendar/tools. Never compiled.
