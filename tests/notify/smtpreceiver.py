#!/usr/bin/python3
"""An SMTP server for the notification tests (Debian's python3-aiosmtpd), on loopback.

smtpreceiver.py PORT MAILDIR MODE [CERT KEY USER PASSWORD]
MODE: starttls (STARTTLS required before AUTH, AUTH required), implicit (TLS from the first
byte, AUTH required), plain (no TLS, no AUTH). Each message is written to MAILDIR as N.eml
(its envelope in N.env). Prints "ready" once it listens.
"""
import asyncio
import os
import ssl
import sys

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class Keeper:
    def __init__(self, folder):
        self.folder = folder
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        base = os.path.join(self.folder, str(self.count))
        with open(base + ".env.tmp", "w") as env:
            env.write(envelope.mail_from + "\n" + "\n".join(envelope.rcpt_tos) + "\n")
        with open(base + ".eml.tmp", "wb") as eml:
            eml.write(envelope.original_content or envelope.content)
        os.rename(base + ".env.tmp", base + ".env")
        os.rename(base + ".eml.tmp", base + ".eml")
        return "250 2.0.0 Ok: queued as hg%d" % self.count


def main():
    port, folder, mode = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    kwargs = {}
    if mode != "plain":
        cert, key, user, password = sys.argv[4:8]
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)

        def authenticate(server, session, envelope, mechanism, auth_data):
            ok = (isinstance(auth_data, LoginPassword)
                  and auth_data.login.decode() == user
                  and auth_data.password.decode() == password)
            return AuthResult(success=ok, handled=False)

        kwargs.update(authenticator=authenticate, auth_required=True)
        if mode == "starttls":
            kwargs.update(tls_context=context, require_starttls=True, auth_require_tls=True)
        else:
            kwargs.update(auth_require_tls=False)
            kwargs["ssl_context"] = context
    else:
        kwargs.update(auth_require_tls=False)
    controller = Controller(Keeper(folder), hostname="127.0.0.1", port=port, **kwargs)
    controller.start()
    print("ready", flush=True)
    try:
        asyncio.get_event_loop().run_until_complete(asyncio.Event().wait())
    except KeyboardInterrupt:
        pass
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
