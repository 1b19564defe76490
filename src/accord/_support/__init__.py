"""What every layer of accord leans on and that is about no annotation: reading bytes and text safely (``io``),
writing files only where the user said (``safe_paths``), spreadsheet-safe CSV cells (``csv_cells``), progress bars
(``progress``), memory and size limits (``memory``, ``limits``), the unknown-name message (``names``), user methods
and plug-ins (``plugins``), lazy submodules (``lazy``) and the garbage collector paused during a count
(``collector``). Private: import from the modules themselves."""

__all__: list[str] = []
