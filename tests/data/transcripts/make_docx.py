#!/usr/bin/env python3
"""Writes the .docx samples in this folder (run from anywhere; output is
deterministic). Each paragraph of a sample becomes a <w:p>; a few use split
runs, tabs and entities the way Word does."""
import os
import zipfile
from xml.sax.saxutils import escape

HERE = os.path.dirname(os.path.abspath(__file__))
W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'

CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
    '</Types>')
RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>'
    '</Relationships>')


def paragraph(text):
    # "Name\t0:03" lines use a tab the way Teams does; long lines are split
    # into two runs.
    if '\t' in text:
        left, right = text.split('\t', 1)
        runs = f'<w:r><w:t>{escape(left)}</w:t></w:r><w:r><w:tab/><w:t>{escape(right)}</w:t></w:r>'
    elif len(text) > 40:
        cut = text.index(' ', 20)
        runs = (f'<w:r><w:t xml:space="preserve">{escape(text[:cut + 1])}</w:t></w:r>'
                f'<w:r><w:rPr><w:b/></w:rPr><w:t>{escape(text[cut + 1:])}</w:t></w:r>')
    else:
        runs = f'<w:r><w:t>{escape(text)}</w:t></w:r>' if text else ''
    return f'<w:p><w:pPr><w:pStyle w:val="Normal"/></w:pPr>{runs}</w:p>'


def write(name, lines):
    body = ''.join(paragraph(line) for line in lines)
    document = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                f'<w:document xmlns:w="{W}"><w:body>{body}<w:sectPr/></w:body></w:document>')
    path = os.path.join(HERE, name)
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z:
        for member, data in (('[Content_Types].xml', CONTENT_TYPES), ('_rels/.rels', RELS),
                             ('word/document.xml', document)):
            info = zipfile.ZipInfo(member, date_time=(2025, 3, 14, 10, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)


write('Weekly_sync-20250314_100102-Meeting_Recording.docx', [
    'Weekly sync-20250314_100102-Meeting Recording',
    'March 14, 2025, 10:01AM',
    '42m 10s',
    '',
    'Ana Silva   started transcription',
    '',
    'Ana Silva\t0:03',
    'Good morning everyone, the agenda is the Q2 budget & hiring.',
    '',
    'Ben Okafor\t0:15',
    'Finance wants the numbers by the end of the month.',
    '',
    'Ana Silva\t0:24',
    'Ben, could you send the draft budget to Chen?',
    '',
    'Chen Li\t0:31',
    'We agreed to hold hiring until April.',
])

write('meet-transcript.docx', [
    'Roadmap sync - 2025/03/12 10:00 CET - Transcript',
    'Attendees',
    'Elena Petrova, Marco Rossi',
    'Transcript',
    'This editable transcript was computer generated and might contain errors.',
    '00:00:00',
    'Elena Petrova: Let\u2019s check the launch checklist.',
    'Marco Rossi: Two items are still open.',
    'Elena Petrova: Please send me the list after the call.',
])
