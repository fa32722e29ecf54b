"""The delivery record's Lua scripts: each step that must not be cut in half by a crash runs as one
(the scripts that also write the hand-off, the passive offers, are :mod:`bot.delivery.handoff`'s).

Keys of one user only (one hash tag), so they also run on Redis Cluster. ``part_sent`` is the
delivery's record (:mod:`bot.delivery._record`): field ``plan`` and one field per piece, whose value
is ``sending`` while its API call runs, then the channel it settled on.
"""

from __future__ import annotations

import hashlib

# Store a delivery's pieces unless it started before; the stored plan either way. KEYS: part_sent;
# ARGV: plan, record ttl.
BEGIN = """
local plan = redis.call('HGET', KEYS[1], 'plan')
if plan then return plan end
redis.call('HSET', KEYS[1], 'plan', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return ARGV[1]
"""

# Claim a piece before its API call. Fenced: nothing happens unless the lease is held by the token
# ('' = no lease to check). A piece found claimed by an attempt that never settled it (its worker
# died inside the call) may have reached the user: that is recorded here, as 'resent_uncertain'.
# KEYS: part_sent, lease, outcomes; ARGV: piece, record ttl, token, msg key, channel, at, maxlen.
CLAIM = """
if ARGV[3] ~= '' and redis.call('GET', KEYS[2]) ~= ARGV[3] then return 'lost' end
local state = redis.call('HGET', KEYS[1], ARGV[1])
if state and state ~= 'sending' then return 'done' end
redis.call('HSET', KEYS[1], ARGV[1], 'sending')
redis.call('EXPIRE', KEYS[1], ARGV[2])
if not state then return 'first' end
redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[7], '*', 'msg', ARGV[4], 'channel', ARGV[5],
           'status', 'resent_uncertain', 'code', '0', 'bytes', '0', 'at', ARGV[6])
return 'uncertain'
"""
CLAIM_SHA = hashlib.sha1(CLAIM.encode()).hexdigest()

# Withdraw a claim whose API call was never made. KEYS: part_sent; ARGV: piece.
UNCLAIM = """
if redis.call('HGET', KEYS[1], ARGV[1]) == 'sending' then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 1
"""
