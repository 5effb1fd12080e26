"""What a tablet page marks for static/js/your-turn.js: «1» on this seat's move, «0» not, None where nothing is drawn."""
import re



def mark(client, url):
    html = client.get(url).content.decode()
    m = re.search(r'data-your-move="(\d)"', html)
    return m.group(1) if m else None
