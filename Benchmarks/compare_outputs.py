"""Runs every golden case and every runnable README command against two paylinks binaries
and compares stdout, stderr and exit code byte for byte: the check that a refactoring
changed no behaviour. Usage: python3 Benchmarks/compare_outputs.py OLD_BINARY NEW_BINARY.
Commands that need a server (serve, check-award, --award-url) are left out; JUnit
reports are compared without their wall-clock times."""
import re, subprocess, sys, os, shutil, tempfile, json
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if len(sys.argv) != 3:
    sys.exit("usage: compare_outputs.py OLD_BINARY NEW_BINARY")
old, new = sys.argv[1], sys.argv[2]
src = open(f'{root}/Tests/PaylinksCommandLineTests/GoldenTests.swift').read()
cases = []
for m in re.finditer(r'GoldenCase\(\s*"([^"]+)",\s*\[(.*?)\]\s*(?:,\s*([^\n]*?))?\)\s*,?\s*\n', src, re.S):
    name, body, rest = m.group(1), m.group(2), m.group(3) or ''
    args = []
    for tok in re.finditer(r'scenario\("([^"]+)"\)|"((?:[^"\\]|\\.)*)"', body):
        if tok.group(1): args.append(f'{root}/Fixtures/scenarios/{tok.group(1)}')
        else: args.append(tok.group(2).encode().decode('unicode_escape'))
    if 'seeded: false' not in rest: args += ['--seed', '7', '--now', '1718182312']
    cases.append((name, args))
readme = open(f'{root}/README.md').read()
commands = []
for block in re.finditer(r'```(?:sh|console)\n(.*?)```', readme, re.S):
    for line in block.group(1).split('\n'):
        line = line.strip()
        if line.startswith('$ '): line = line[2:]
        if not line.startswith('paylinks '): continue
        if any(w in line for w in ['serve', 'check-award', '&', 'http://', '--award-url']): continue
        commands.append(line.split('  #')[0].split(' # ')[0])
commands += [
    'paylinks run Fixtures/scenarios', 'paylinks run Fixtures/scenarios --json',
    'paylinks run Fixtures/scenarios --matrix platform=ios,android,unity --jobs 1',
    'paylinks run Fixtures/scenarios --matrix generation=G1,G2,G3 --jobs 1',
    'paylinks run Fixtures/scenarios --report junit=r.xml --jobs 1 && sed -e "s/time=[^ ]*//g" r.xml',
    'paylinks errors --json', 'paylinks errors --sdk-version 1.7', 'paylinks errors --platform unity --sdk-version 3.0',
    'paylinks offers --country DE --json', 'paylinks countries', 'paylinks man', 'paylinks completions zsh',
    'paylinks purchase --sku starter_pack_001 --count 100000 --json | sha256sum',
    'paylinks purchase --sku starter_pack_001 --trace', 'paylinks cancel --sku starter_pack_001 --before-order --trace',
    'paylinks purchase --sku nope', 'paylinks price-points --sdk-version 2.0', 'paylinks purchase --sku starter_pack_001 --publisher-token x',
] + [f'paylinks help {c}' for c in ['init','price-points','purchase','cancel','errors','offers','countries','run','check-award','serve','completions','man']] + [f'paylinks errors {c}' for c in [1001,2000,2001,2002,2003,2004,2005,3000,3002,3003,3004,3005,3006,3007,4002,8000,8001,8002]]
work = tempfile.mkdtemp()
shutil.copytree(f'{root}/Fixtures', f'{work}/Fixtures')
def run(binary, argv=None, shell=None):
    env = {'PATH': f'{work}/bin:/usr/bin:/bin', 'HOME': work, 'PAYLINKS_SEED': '7', 'SOURCE_DATE_EPOCH': '1718182312'}
    os.makedirs(f'{work}/bin', exist_ok=True)
    shutil.copy(binary, f'{work}/bin/paylinks')
    if argv is not None:
        p = subprocess.run([f'{work}/bin/paylinks'] + argv, capture_output=True, cwd=work, env=env, timeout=60)
    else:
        p = subprocess.run(['bash', '-c', shell], capture_output=True, cwd=work, env=env, timeout=60)
    return p.returncode, p.stdout, p.stderr
same = differ = 0
for name, args in cases:
    a, b = run(old, args), run(new, args)
    if a == b: same += 1
    else:
        differ += 1; print('DIFFER golden', name, a[0], b[0]); print(a[2][-300:], b[2][-300:])
for line in commands:
    a, b = run(old, shell=line), run(new, shell=line)
    if a == b: same += 1
    else:
        differ += 1; print('DIFFER readme', line, a[0], b[0]); print(a[2][-300:], b[2][-300:])
print(json.dumps({'golden cases': len(cases), 'commands': len(commands), 'same': same, 'differ': differ}))
sys.exit(1 if differ else 0)
