"""Pure helpers for Chinese text shared by the skills (no rclpy).

pinyin.py: toneless pinyin per character (cached) and finding configured
names by sound.
"""

import os

# Names are matched by the sound of each character, so pypinyin's phrase
# dictionary is never used; not loading it saves about 45 MB per process.
os.environ.setdefault('PYPINYIN_NO_PHRASES', 'true')
os.environ.setdefault('PYPINYIN_NO_DICT_COPY', 'true')
