"""The address a phone on the table's network can reach: PUBLIC_URL, else the LAN address.

Reads the interfaces' own addresses (no packet is sent anywhere) and never answers localhost.
"""
from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct
from urllib.parse import urlsplit

SIOCGIFADDR = 0x8915


def interface_addresses() -> list[str]:
    """IPv4 addresses of this machine's interfaces, loopback excluded."""
    found = []
    for _index, name in socket.if_nameindex():
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                packed = fcntl.ioctl(sock.fileno(), SIOCGIFADDR,
                                     struct.pack("256s", name[:15].encode()))
        except OSError:
            continue
        address = socket.inet_ntoa(packed[20:24])
        if not ipaddress.ip_address(address).is_loopback:
            found.append(address)
    return found


def lan_address() -> str | None:
    """The best LAN address: a private one first, then any other non-loopback one."""
    addresses = interface_addresses()
    private = [a for a in addresses if ipaddress.ip_address(a).is_private]
    return (private or addresses or [None])[0]


def base_url(public_url: str | None, port: int) -> str:
    """The root URL put into QR codes and share links: PUBLIC_URL, else this machine's LAN
    address with the port the server listens on. Never anything of the request's Host header
    (a DNS-rebinding page could otherwise get its own name or port into the QR codes)."""
    if public_url:
        return public_url.rstrip("/")
    address = lan_address() or "127.0.0.1"
    return f"http://{address}:{port}"


def trusted_hosts(extra, public_url: str | None) -> list[str]:
    """The host names the server answers to: its LAN addresses, localhost, its host name
    (and name.local), PUBLIC_URL's host, and ``extra`` (TRUSTED_HOSTS: a list or a comma- or
    space-separated string; a leading dot admits every subdomain)."""
    names = {"localhost", "127.0.0.1", *interface_addresses()}
    host = socket.gethostname()
    if host:
        names.update({host, f"{host}.local"})   # no getfqdn: a DNS lookup at start-up
    if public_url:
        names.add(urlsplit(public_url).hostname or "")
    if isinstance(extra, str):
        extra = extra.replace(",", " ").split()
    names.update(str(name).strip() for name in extra or ())
    return sorted(n for n in names if n)


def _is_local(host: str) -> bool:
    host = host.strip("[]")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
