#!/usr/bin/env python3
"""Independent check of umpire's protocol test vectors (DESIGN §2.8).

Python 3 standard library only; no umpire code. Re-derives from game.log and vectors.json:
entry hashes, the signed-message layout and full Ed25519 verification (RFC 8032),
public keys from seeds, key ids, chain seeds/links/anchors, dice seeds, d6/d10/d12/d20
rolls and the shuffle with its own ChaCha20 (RFC 8439 block function, as rand_chacha's
ChaCha20Rng: key = seed, 64-bit block counter from 0, 64-bit stream id 0, each block's 16
little-endian u32 words in order), commitments, the seal and seal-for ciphertexts
(ChaCha20-Poly1305, RFC 8439), the X25519 shared secret (RFC 7748), and the private draw.

Usage: python3 independent_check.py [DIR]   (DIR defaults to this file's directory)
Prints "N passed, 0 failed" and exits 0 when everything agrees.
"""
import base64
import hashlib
import json
import os
import re
import sys

HERE = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
passed = 0
failed = 0


def check(what, ok):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def sha256(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p)
    return h.digest()


def tagged(tag, *parts):
    return sha256(tag.encode() + b"\0", *parts)


# ---------------------------------------------------------------- Ed25519 (RFC 8032)
P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
I = pow(2, (P - 1) // 4, P)


def inv(x):
    return pow(x, P - 2, P)


def xrecover(y):
    xx = (y * y - 1) * inv(D * y * y + 1)
    x = pow(xx, (P + 3) // 8, P)
    if (x * x - xx) % P != 0:
        x = x * I % P
    if (x * x - xx) % P != 0:
        return None
    return x


BY = 4 * inv(5) % P
BX = xrecover(BY)
if BX % 2:
    BX = P - BX
B = (BX, BY, 1, BX * BY % P)


def add(p, q):
    x1, y1, z1, t1 = p
    x2, y2, z2, t2 = q
    a = (y1 - x1) * (y2 - x2) % P
    b = (y1 + x1) * (y2 + x2) % P
    c = t1 * 2 * D * t2 % P
    dd = z1 * 2 * z2 % P
    e, f, g, h = b - a, dd - c, dd + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def mul(s, p):
    q = (0, 1, 1, 0)
    while s > 0:
        if s & 1:
            q = add(q, p)
        p = add(p, p)
        s >>= 1
    return q


def encode_point(p):
    x, y, z, _ = p
    zi = inv(z)
    x, y = x * zi % P, y * zi % P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def decode_point(b):
    y = int.from_bytes(b, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    if y >= P:
        return None
    x = xrecover(y)
    if x is None or (x == 0 and sign):
        return None
    if x & 1 != sign:
        x = P - x
    return (x, y, 1, x * y % P)


def point_equal(p, q):
    x1, y1, z1, _ = p
    x2, y2, z2, _ = q
    return (x1 * z2 - x2 * z1) % P == 0 and (y1 * z2 - y2 * z1) % P == 0


def secret_expand(seed):
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    return a, h[32:], h[:32]


def public_from_seed(seed):
    a, _, _ = secret_expand(seed)
    return encode_point(mul(a, B))


def ed25519_verify(public, msg, sig):
    A = decode_point(public)
    if A is None or len(sig) != 64:
        return False
    R = decode_point(sig[:32])
    if R is None:
        return False
    s = int.from_bytes(sig[32:], "little")
    if s >= L:
        return False
    k = int.from_bytes(hashlib.sha512(sig[:32] + public + msg).digest(), "little") % L
    return point_equal(mul(8 * s, B), add(mul(8, R), mul(8 * k, A)))


# ---------------------------------------------------------------- X25519 (RFC 7748)
def x25519(k_bytes, u_bytes):
    k = bytearray(k_bytes)
    k[0] &= 248
    k[31] &= 127
    k[31] |= 64
    k = int.from_bytes(k, "little")
    u = int.from_bytes(u_bytes, "little") & ((1 << 255) - 1)
    x1, x2, z2, x3, z3, swap = u, 1, 0, u, 1, 0
    a24 = 121665
    for t in reversed(range(255)):
        kt = (k >> t) & 1
        swap ^= kt
        if swap:
            x2, x3, z2, z3 = x3, x2, z3, z2
        swap = kt
        A = (x2 + z2) % P
        AA = A * A % P
        Bv = (x2 - z2) % P
        BB = Bv * Bv % P
        E = (AA - BB) % P
        C = (x3 + z3) % P
        Dv = (x3 - z3) % P
        DA = Dv * A % P
        CB = C * Bv % P
        x3 = (DA + CB) ** 2 % P
        z3 = x1 * (DA - CB) ** 2 % P
        x2 = AA * BB % P
        z2 = E * (AA + a24 * E) % P
    if swap:
        x2, z2 = x3, z3
    return (x2 * pow(z2, P - 2, P) % P).to_bytes(32, "little")


def edwards_to_montgomery(public):
    y = int.from_bytes(public, "little") & ((1 << 255) - 1)
    return ((1 + y) * inv(1 - y) % P).to_bytes(32, "little")


# ---------------------------------------------------------------- ChaCha20 (RFC 8439)
def rotl(v, c):
    return ((v << c) & 0xFFFFFFFF) | (v >> (32 - c))


def quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF; s[d] = rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF; s[b] = rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF; s[d] = rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF; s[b] = rotl(s[b] ^ s[c], 7)


def chacha_block(key, words13to16):
    """16 output words; words13to16 = state words 12..15 (counter and nonce)."""
    consts = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    kw = [int.from_bytes(key[i:i + 4], "little") for i in range(0, 32, 4)]
    init = consts + kw + list(words13to16)
    s = list(init)
    for _ in range(10):
        quarter(s, 0, 4, 8, 12); quarter(s, 1, 5, 9, 13); quarter(s, 2, 6, 10, 14); quarter(s, 3, 7, 11, 15)
        quarter(s, 0, 5, 10, 15); quarter(s, 1, 6, 11, 12); quarter(s, 2, 7, 8, 13); quarter(s, 3, 4, 9, 14)
    return [(s[i] + init[i]) & 0xFFFFFFFF for i in range(16)]


class ChaCha20Rng:
    """rand_chacha's ChaCha20Rng::from_seed: 64-bit counter in words 12-13, stream 0 in 14-15."""

    def __init__(self, seed):
        self.key = seed
        self.counter = 0
        self.buf = []

    def next_u32(self):
        if not self.buf:
            c = self.counter
            self.buf = chacha_block(self.key, [c & 0xFFFFFFFF, c >> 32, 0, 0])
            self.counter += 1
        return self.buf.pop(0)


def roll(rng, n):
    limit = (2**32 // n) * n
    while True:
        x = rng.next_u32()
        if x < limit:
            return x % n


def rolls(seed, n, count):
    rng = ChaCha20Rng(seed)
    return [roll(rng, n) for _ in range(count)]


def chacha20_xor(key, nonce12, counter, data):
    out = bytearray()
    n = [int.from_bytes(nonce12[i:i + 4], "little") for i in range(0, 12, 4)]
    for off in range(0, len(data), 64):
        block = chacha_block(key, [counter + off // 64] + n)
        ks = b"".join(w.to_bytes(4, "little") for w in block)
        out += bytes(a ^ b for a, b in zip(data[off:off + 64], ks))
    return bytes(out)


def poly1305(key, msg):
    r = int.from_bytes(key[:16], "little") & 0x0FFFFFFC0FFFFFFC0FFFFFFC0FFFFFFF
    s = int.from_bytes(key[16:], "little")
    p = 2**130 - 5
    acc = 0
    for i in range(0, len(msg), 16):
        chunk = msg[i:i + 16] + b"\x01"
        acc = (acc + int.from_bytes(chunk, "little")) * r % p
    return ((acc + s) % 2**128).to_bytes(16, "little")


def aead_seal(key, nonce12, plain, aad=b""):
    otk = b"".join(w.to_bytes(4, "little") for w in chacha_block(key, [0] + [int.from_bytes(nonce12[i:i + 4], "little") for i in range(0, 12, 4)]))[:32]
    ct = chacha20_xor(key, nonce12, 1, plain)
    pad = lambda b: b + b"\0" * (-len(b) % 16)
    mac_data = pad(aad) + pad(ct) + len(aad).to_bytes(8, "little") + len(ct).to_bytes(8, "little")
    return ct + poly1305(otk, mac_data)


def seq_nonce(seq):
    return seq.to_bytes(12, "big")


def seal_text(key, seq, plain, padded_len):
    """umpire's sealing (DESIGN 2.6): p = plain padded with zero bytes (at least one) to
    padded_len, synthetic nonce over p, sealed = base64(nonce ‖ ciphertext ‖ tag)."""
    assert b"\0" not in plain and len(plain) < padded_len and padded_len % 256 == 0
    plain = plain + b"\0" * (padded_len - len(plain))
    nonce = tagged("umpire/seal-nonce/1", key, seq_nonce(seq), plain)[:12]
    return nonce, base64.b64encode(nonce + aead_seal(key, nonce, plain)).decode()


# ---------------------------------------------------------------- self-tests of the primitives
# RFC 8439 §2.3.2 block function test vector.
_k = bytes(range(32))
_blk = chacha_block(_k, [1, 0x09000000, 0x4a000000, 0x00000000])
check("RFC 8439 2.3.2 ChaCha20 block", _blk[0] == 0xE4E7F110 and _blk[15] == 0x4E3C50A2)
# RFC 8439 §2.8.2 AEAD test vector.
_key = bytes(range(0x80, 0xA0))
_nonce = bytes.fromhex("070000004041424344454647")
_aad = bytes.fromhex("50515253c0c1c2c3c4c5c6c7")
_pt = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
_ct = aead_seal(_key, _nonce, _pt, _aad)
check("RFC 8439 2.8.2 AEAD tag", _ct[-16:].hex() == "1ae10b594f09e26a7e902ecbd0600691")
# RFC 8032 test 1.
_sk = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
check("RFC 8032 test 1 public key", public_from_seed(_sk).hex() == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
# RFC 7748 5.2 X25519 vector 1.
check("RFC 7748 X25519", x25519(bytes.fromhex("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4"),
                                bytes.fromhex("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c")).hex()
      == "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552")
check("RFC 7748 6.1 X25519 public key", x25519(bytes.fromhex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"),
                                                (9).to_bytes(32, "little")).hex()
      == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")

# ---------------------------------------------------------------- the vectors
V = json.load(open(os.path.join(HERE, "vectors.json")))
raw = open(os.path.join(HERE, "game.log"), "rb").read()
check("log sha256", sha256(raw).hex() == V["game"]["log_sha256"])

# Split on lines that are exactly '---'.
check("log starts with ---", raw.startswith(b"---\n"))
entries = []
cur = None
for line in raw.split(b"\n")[:-1] if raw.endswith(b"\n") else raw.split(b"\n"):
    if line == b"---":
        if cur is not None:
            entries.append(cur)
        cur = b""
    else:
        cur += line + b"\n"
entries.append(cur)
check("entry count", len(entries) == len(V["entries"]))

keys = {}
for k in V["keys"]:
    seed = bytes.fromhex(k["seed"])
    pub = public_from_seed(seed)
    check(f"public key of {k['name']}", "ed25519:" + base64.b64encode(pub).decode() == k["public"])
    check(f"key id of {k['name']}", sha256(pub).hex()[:16] == k["key_id"])
    keys[k["seat"]] = (seed, pub)


def top(entry, key):
    """A top-level scalar (plain or single-quoted) of an entry, or None."""
    m = re.search(rb"^" + key.encode() + rb": '?([^'\n]*)'?$", entry, re.M)
    return m.group(1).decode() if m else None


def body_field(entry, key):
    m = re.search(rb"^  " + key.encode() + rb": '?([^'\n]*)'?$", entry, re.M)
    return m.group(1).decode() if m else None


game_id = sha256(entries[0]).hex()
check("game id", game_id == V["game"]["game_id"])
nonce = bytes.fromhex(V["game"]["nonce"])
check("genesis nonce", body_field(entries[0], "nonce") == V["game"]["nonce"])
length = V["game"]["chain_length"]
check("genesis chain_length", body_field(entries[0], "chain_length") == str(length))

order = ["umpire", "game", "seq", "prev", "seat", "reveal", "dice_from", "time", "body", "sig"]
last = {}
prev_hash = None
kinds = [body_field(e, "kind") for e in entries]
REVEALS = ("orders", "ack")
seats_decl = re.findall(rb"^  - seat: (\S+)\n    side: (\S+)$", entries[0], re.M)
side_of = {a.decode(): b.decode() for a, b in seats_decl}
proposer = top(entries[0], "seat")
joiners = [s_ for s_, _ in (x for x in ((a.decode(), b) for a, b in seats_decl)) if s_ != proposer]
check("two sides", len(set(side_of.values())) == 2)
join_hashes = {}
for i, (e, ve) in enumerate(zip(entries, V["entries"])):
    h = sha256(e).hex()
    check(f"entry {i} hash", h == ve["hash"])
    lines = e.split(b"\n")
    check(f"entry {i} ends with LF", e.endswith(b"\n"))
    sig_line = lines[-2]
    m = re.fullmatch(rb"sig: ed25519:([A-Za-z0-9+/]{86}==)", sig_line)
    check(f"entry {i} sig line format", m is not None)
    unsigned = e[: len(e) - len(sig_line) - 1]
    msg = b"umpire/entry/1\0" + unsigned
    check(f"entry {i} signed message", sha256(msg).hex() == ve["signed_message_sha256"])
    seat = top(e, "seat")
    check(f"entry {i} seat", seat == ve["seat"])
    sig = base64.b64decode(m.group(1)) if m else b""
    check(f"entry {i} Ed25519 signature", ed25519_verify(keys[seat][1], msg, sig))
    # Top-level keys in protocol order.
    ks = [l.split(b":")[0].decode() for l in lines if l and not l.startswith(b" ") and not l.startswith(b"-")]
    check(f"entry {i} key order", ks == [k for k in order if k in ks] and ks[0] == "umpire" and ks[-1] == "sig")
    check(f"entry {i} header version", lines[0] == b"umpire: entry/2")
    check(f"entry {i} seq", top(e, "seq") == str(ve["seq"]))
    if i == 0:
        check("entry 0 has no game/prev", top(e, "game") is None and top(e, "prev") is None)
        prev_hash = h
    elif kinds[i] == "join":
        # DESIGN 2.4: the k-th non-proposing seat joins at seq k with prev = the game id.
        check(f"entry {i} game", top(e, "game") == game_id)
        check(f"join {i} seq is its seat's position", int(top(e, "seq")) == joiners.index(seat) + 1)
        check(f"join {i} prev is the game id", top(e, "prev") == game_id)
        join_hashes[int(top(e, "seq"))] = bytes.fromhex(h)
        if len(join_hashes) == len(joiners):
            prev_hash = tagged("umpire/joins/2", *[join_hashes[k] for k in sorted(join_hashes)]).hex()
            check("joins digest", prev_hash == V["game"]["joins_digest"])
    else:
        check(f"entry {i} game", top(e, "game") == game_id)
        check(f"entry {i} prev", top(e, "prev") == prev_hash)
        prev_hash = h
    check(f"entry {i} prev vector", top(e, "prev") == ve["prev"])
    # Only orders and ack carry reveal and dice_from (DESIGN 2.5).
    if kinds[i] not in REVEALS:
        check(f"entry {i} ({kinds[i]}) carries no reveal or dice_from", top(e, "reveal") is None and top(e, "dice_from") is None)
    # Chains: anchor in the seat's first entry, then H(reveal_n) = reveal_(n-1).
    s = tagged("umpire/chain/1", keys[seat][0], nonce, seat.encode())
    c = s
    for _ in range(length):
        c = sha256(c)
    reveal = top(e, "reveal")
    check(f"entry {i} reveal", reveal == ve["reveal"])
    if seat not in last:
        check(f"entry {i} anchor of {seat}", body_field(e, "chain") == c.hex() and reveal is None)
        check(f"chain seed of {seat}", s.hex() == V["chains"][seat]["seed"])
        last[seat] = c
    elif reveal is not None:
        r = bytes.fromhex(reveal)
        check(f"entry {i} reveal follows", sha256(r) == last[seat])
        last[seat] = r

# Chain values c0..c3.
for seat, ch in V["chains"].items():
    s = bytes.fromhex(ch["seed"])
    vals = []
    for i in range(4):
        c = s
        for _ in range(length - i):
            c = sha256(c)
        vals.append(c.hex())
    check(f"chain values of {seat}", vals == ch["c0_to_c3"])

# Dice seeds (DESIGN 2.5): E's seed is H("umpire/dice/2" || reveal(E) || reveal(F)), F the next
# orders/ack entry of E's dice_from seat. (umpire lets a partner of that seat send first unless
# a random action waits for E's dice, which the engine checks: docs/engine.md.)
for i, (e, ve) in enumerate(zip(entries, V["entries"])):
    frm = top(e, "dice_from")
    check(f"entry {i} dice_from", frm == ve["dice_from"])
    want = None
    if frm is not None:
        check(f"entry {i} dice_from is of the other side", side_of[frm] != side_of[top(e, "seat")])
        for j in range(i + 1, len(entries)):
            if kinds[j] not in REVEALS or top(entries[j], "seat") != frm:
                continue
            want = tagged("umpire/dice/2", bytes.fromhex(top(e, "reveal")), bytes.fromhex(top(entries[j], "reveal"))).hex()
            break
    check(f"entry {i} dice seed", want == ve["dice_seed"])
    # Leading rolls: body.lead names P, the latest orders/ack of the other side, with no
    # orders/ack of E's side between P and E; seed_lead = H("umpire/lead-dice/2" || reveal(P) || reveal(E)).
    lead = body_field(e, "lead")
    check(f"entry {i} lead", lead == ve["lead"])
    if lead is not None:
        p_idx = [j for j in range(i) if sha256(entries[j]).hex() == lead]
        check(f"entry {i} lead names an entry", len(p_idx) == 1)
        pj = p_idx[0]
        my_side = side_of[top(e, "seat")]
        others = [j for j in range(i) if kinds[j] in REVEALS and side_of[top(entries[j], "seat")] != my_side]
        check(f"entry {i} lead is the latest orders/ack of the other side", others and others[-1] == pj)
        check(f"entry {i} nothing of its side between P and E",
              not any(kinds[j] in REVEALS and side_of[top(entries[j], "seat")] == my_side for j in range(pj + 1, i)))
        ls = tagged("umpire/lead-dice/2", bytes.fromhex(top(entries[pj], "reveal")), bytes.fromhex(top(e, "reveal")))
        check(f"entry {i} lead seed", ls.hex() == ve["lead_seed"] and ve["lead_from_seq"] == pj)
        check(f"entry {i} lead d6", rolls(ls, 6, 3) == ve["lead_d6"])

R = V["rolls"]
seed = bytes.fromhex(R["seed"])
check("roll seed is entry 3's", R["seed"] == V["entries"][3]["dice_seed"])
for die, n in (("d6", 6), ("d10", 10), ("d12", 12), ("d20", 20)):
    check(f"rolls {die}", rolls(seed, n, 10) == R[die])
# rand_chacha's stream for the all-zero seed starts with RFC 8439 A.1's first block.
check("ChaCha20Rng zero seed", ChaCha20Rng(bytes(32)).next_u32() == 0xADE0B876)

S = V["shuffle"]
rng = ChaCha20Rng(bytes.fromhex(S["seed"]))
items = list(S["input"])
for i in range(len(items) - 1, 0, -1):
    j = roll(rng, i + 1)
    items[i], items[j] = items[j], items[i]
check("shuffle", items == S["result"])

C = V["commitment"]
gid = bytes.fromhex(game_id)
salt = tagged("umpire/salt/1", keys[C["seat"]][0], gid, C["id"].encode())
check("commitment salt", salt.hex() == C["salt"])
digest = tagged("umpire/commit/1", salt, C["value"].encode())
check("commitment digest", digest.hex() == C["digest"])
check("commitment in entry 3", digest.hex().encode() in entries[3])

Sl = V["seal"]
key = tagged("umpire/seal/1", keys[Sl["seat"]][0], gid)
check("seal key", key.hex() == Sl["key"])
check("seal seq nonce", seq_nonce(Sl["seq"]).hex() == Sl["seq_nonce"])
nonce, sealed = seal_text(key, Sl["seq"], Sl["plain"].encode(), Sl["padded_len"])
check("seal synthetic nonce (over the padded note)", nonce.hex() == Sl["synthetic_nonce"])
check("seal ciphertext", sealed == Sl["sealed"])
check("seal length tells only the padded length", len(base64.b64decode(sealed)) == 12 + Sl["padded_len"] + 16)
check("seal in entry 4", body_field(entries[4], "sealed") == sealed)

F = V["seal_for"]
a_seed, a_pub = keys[F["author_seat"]]
b_seed, b_pub = keys[F["partner_seat"]]
shared_ab = x25519(hashlib.sha512(a_seed).digest()[:32], edwards_to_montgomery(b_pub))
shared_ba = x25519(hashlib.sha512(b_seed).digest()[:32], edwards_to_montgomery(a_pub))
check("seal-for shared secret", shared_ab.hex() == F["shared_secret"])
check("seal-for shared secret both ways", shared_ab == shared_ba)
fkey = tagged("umpire/seal-for/1", shared_ab, gid, F["author_seat"].encode(), b"\0", F["partner_seat"].encode())
check("seal-for key", fkey.hex() == F["key"])
nonce, sealed = seal_text(fkey, F["seq"], F["plain"].encode(), F["padded_len"])
check("seal-for synthetic nonce (over the padded note)", nonce.hex() == F["synthetic_nonce"])
check("seal-for ciphertext", sealed == F["sealed"])

D6 = V["private_draw"]
r = tagged("umpire/draw/1", keys[D6["seat"]][0], gid, D6["draw_id"].encode())
check("private draw r", r.hex() == D6["r"])
dsalt = tagged("umpire/salt/1", keys[D6["seat"]][0], gid, D6["draw_id"].encode())
check("private draw commitment salt", dsalt.hex() == D6["commit_salt"])
check("private draw commitment digest", tagged("umpire/commit/1", dsalt, r.hex().encode()).hex() == D6["commit_digest"])
check("private draw committed in its entry", D6["commit_digest"].encode() in entries[D6["commit_seq"]])
check("private draw reveal", top(entries[D6["reveal_seq"]], "reveal") == D6["reveal"])
pseed = tagged("umpire/private-dice/1", r, bytes.fromhex(D6["reveal"]))
check("private draw seed", pseed.hex() == D6["seed"])
check("private draw d6", rolls(pseed, 6, 5) == D6["d6"])

m = re.search(rb"^    text: \|\n((?:      .*\n)+)", entries[0], re.M)
scenario = b"".join(l[6:] + b"\n" for l in m.group(1).split(b"\n")[:-1]) if m else b""
check("scenario sha256 of the block scalar text", sha256(scenario).hex() == V["game"]["scenario_sha256"])
check("scenario sha256 in genesis", re.search(rb"^    sha256: '?" + V["game"]["scenario_sha256"].encode(), entries[0], re.M) is not None)

print(f"{passed} passed, {failed} failed")
sys.exit(0 if failed == 0 else 1)
