/** Structured JSON logs on stdout, one object a line. Never pass secrets in fields: nothing here redacts them. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export class Logger {
  constructor(private readonly level: LogLevel = 'info') {}

  private write(level: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) {
    if (ORDER[level] < ORDER[this.level]) return;
    process.stdout.write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }) + '\n');
  }

  debug(msg: string, fields?: Record<string, unknown>) {
    this.write('debug', msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>) {
    this.write('info', msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>) {
    this.write('warn', msg, fields);
  }
  error(msg: string, fields?: Record<string, unknown>) {
    this.write('error', msg, fields);
  }
}
