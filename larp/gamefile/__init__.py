"""Game files: a scenario or a whole game to a file and back, and the automatic backups (docs/gamefile.md).

`graph.py` finds every model that belongs to a game by walking the apps' foreign
keys to `campaign.Game`, so a model added later is carried without a list to
update; `services.py` writes a game to one JSON document and reads it back into
any database (primary keys remapped); `scenario_file.py` turns a game's map,
factions and forces into a scenario file (YAML, or a zip with the map picture);
`backups.py` keeps the last copies of the running games under var/backups/.
"""
