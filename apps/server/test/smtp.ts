import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
  text: string;
}

/** Decodes a MIME body part as nodemailer writes plain text (7bit, quoted-printable or base64). */
function decodeBody(headers: string, body: string): string {
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

function decodeSubject(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_m, kind: string, data: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

/** A real SMTP peer on loopback (smtp-server) that keeps what it receives; it can refuse mail on demand. */
export class TestSmtp {
  readonly inbox: ReceivedMail[] = [];
  accepting = true;
  private server: SMTPServer;
  port = 0;

  constructor(private readonly onMail?: (mail: ReceivedMail) => void) {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          if (!this.accepting) {
            const err = new Error('Service unavailable, try later') as Error & { responseCode: number };
            err.responseCode = 451;
            callback(err);
            return;
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          const split = raw.indexOf('\r\n\r\n');
          const headers = raw.slice(0, split);
          const body = raw.slice(split + 4);
          const subject = decodeSubject(
            /^subject:\s*(.*(?:\r\n[ \t].*)*)/im.exec(headers)?.[1]?.replace(/\r\n[ \t]/g, ' ') ?? '',
          );
          const mail = {
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            subject,
            text: decodeBody(headers, body),
          };
          this.inbox.push(mail);
          this.onMail?.(mail);
          callback();
        });
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return `smtp://127.0.0.1:${this.port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The newest mail to an address. */
  last(to: string): ReceivedMail | undefined {
    return [...this.inbox].reverse().find((m) => m.to.includes(to));
  }
}
