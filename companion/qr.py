"""QR codes as SVG (for pages, the API and the terminal)."""
from __future__ import annotations

import io

import qrcode
import qrcode.image.svg


def qr_svg(text: str) -> str:
    """An SVG QR code of ``text``, scalable, with a quiet zone."""
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathFillImage, border=4,
                        error_correction=qrcode.constants.ERROR_CORRECT_M)
    return image.to_string(encoding="unicode")


def qr_terminal(text: str) -> str:
    """The QR code drawn with text blocks, for `make run` to print."""
    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(text)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()
