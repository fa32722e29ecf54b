"""The delivery's Lua scripts: each step that must not be cut in half by a crash runs as one.

Keys of one user only (one hash tag), so they also run on Redis Cluster. ``part_sent`` is the
delivery's record (:mod:`bot.delivery._record`): field ``plan`` and one field per piece, whose value
is ``sending`` while its API call runs, then the channel it settled on.
"""

from __future__ import annotations

import hashlib

# Whether a request can still take a reply offered now: the hand-off waits, and its latest request's
# ``offer_by`` (epoch seconds, absent: no limit) has not passed on the server's clock. A waiting
# hand-off whose requests are all past it is released here: the reply goes through the API at once,
# in the user's order, and WeChat's next attempt is answered at once. KEYS[2]: handoff.
_OFFERABLE = """
local function offerable()
  if redis.call('HGET', KEYS[2], 'state') ~= 'waiting' then return false end
  local by = redis.call('HGET', KEYS[2], 'offer_by')
  local t = redis.call('TIME')
  if not by or tonumber(t[1]) + tonumber(t[2]) / 1000000 < tonumber(by) then return true end
  redis.call('HSET', KEYS[2], 'state', 'released')
  return false
end
"""

# The passive piece handed to the waiting request and settled in the delivery's record; a waiting
# request is woken through the replies channel, and the user's flags name the message as the open
# passive reply. Nothing is recorded as sent here: the request that answers with it records that
# (:mod:`bot.delivery.handoff`). ARGV: piece, text, record ttl, msg key, bytes, at, maxlen, channel,
# channel message; KEYS: part_sent, handoff, outcomes, parked, flags.
_OFFERED = """
  redis.call('HSET', KEYS[2], 'state', 'ready', 'text', ARGV[2])
  redis.call('HSET', KEYS[1], ARGV[1], 'passive')
  redis.call('EXPIRE', KEYS[1], ARGV[3])
  redis.call('HSET', KEYS[5], 'offered', ARGV[4])
  redis.call('PUBLISH', ARGV[8], ARGV[9])
"""

# Offer one piece of a started delivery: skip it if settled before; 'lost' if no request can take it
# (nothing changes but an expired hand-off's release). ARGV[10] = '1' when it is the delivery's last
# piece: the record is done and the parked texts the delivery carried (ARGV[11..]) leave the parked
# list in the same step. KEYS: part_sent, handoff, outcomes, parked, flags.
OFFER_PASSIVE = _OFFERABLE + """
local settled = redis.call('HGET', KEYS[1], ARGV[1])
if settled and settled ~= 'sending' then return 'done' end
if not offerable() then return 'lost' end
""" + _OFFERED + """
if ARGV[10] == '1' then
  redis.call('HSET', KEYS[1], 'plan', 'done')
  for i = 11, #ARGV do redis.call('LREM', KEYS[4], 1, ARGV[i]) end
end
return 'offered'
"""

# A delivery's first step when it would be one passive piece: offered (and the record done at once)
# if a request can take it, nothing is parked, no earlier passive reply of the user is open and the
# delivery has not started before; else nothing changes (but an expired hand-off's release) and what
# the delivery plans from is returned. One round trip either way, and it can ride in the caller's
# pipeline. KEYS: part_sent, handoff, outcomes, parked, flags, quota and, optionally, the marker
# the turn's commit writes in the same pipeline (nothing happens without it: {'unsaved'});
# ARGV as OFFER_PASSIVE's first nine. Replies: {'offered'} or {'read', state, parked, flags, quota, record}.
OFFER_OR_READ = _OFFERABLE + """
if KEYS[7] and redis.call('EXISTS', KEYS[7]) == 0 then return {'unsaved'} end
local open = redis.call('HGET', KEYS[5], 'offered')
if (not open or open == ARGV[4]) and redis.call('HEXISTS', KEYS[1], 'plan') == 0
    and redis.call('LLEN', KEYS[4]) == 0 and offerable() then
  redis.call('HSET', KEYS[1], 'plan', 'done')
""" + _OFFERED + """
  return {'offered'}
end
return {'read', redis.call('HGET', KEYS[2], 'state'), redis.call('LRANGE', KEYS[4], 0, -1),
        redis.call('HGETALL', KEYS[5]), redis.call('HGETALL', KEYS[6]), redis.call('HGETALL', KEYS[1])}
"""
OFFER_OR_READ_SHA = hashlib.sha1(OFFER_OR_READ.encode()).hexdigest()

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
