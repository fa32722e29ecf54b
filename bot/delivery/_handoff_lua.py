"""Every Lua script that writes the hand-off (:mod:`bot.delivery.handoff` says what the states mean;
it alone imports this module): the webhook's and the sweeper's, the delivery's offer of a passive
piece, and the hand-off side of a message's admit that the mailbox composes its script with.

Every time limit is checked against the Redis server's clock (``TIME``) inside the script that acts
on it, so a process frozen between deciding and acting cannot act late. The fields of the hand-off
hash: ``state``, ``attempts``, ``text``; the latest request's ``offer_by`` and ``claim_by``; the
taker's ``taker``, ``taker_arrived`` and ``write_by`` (epoch seconds). The user's flags hash keeps
``offered``: the message whose passive reply was handed to a request and is not settled yet.
"""

from __future__ import annotations

# Redis time in seconds; a "by" field that is absent never passes (hand-offs opened without times).
_NOW = """
local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) + tonumber(t[2]) / 1000000
end
local function before(key, field)
  local by = redis.call('HGET', key, field)
  return not by or now() < tonumber(by)
end
"""

OPEN = """
local existed = redis.call('EXISTS', KEYS[1])
if existed == 0 then
  redis.call('HSET', KEYS[1], 'state', 'waiting', 'attempts', 1)
  redis.call('EXPIRE', KEYS[1], ARGV[1])
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
  return {'waiting', 1}
end
local n = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
return {redis.call('HGET', KEYS[1], 'state'), n}
"""

# Worker: hand the reply to a request that can still answer with it. KEYS: handoff; ARGV: text,
# channel, member. 0: nobody waits (an expired waiting hand-off is released here).
OFFER = _NOW + """
if redis.call('HGET', KEYS[1], 'state') ~= 'waiting' then return 0 end
if not before(KEYS[1], 'offer_by') then
  redis.call('HSET', KEYS[1], 'state', 'released')
  return 0
end
redis.call('HSET', KEYS[1], 'state', 'ready', 'text', ARGV[1])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
"""

# A request takes the ready reply for itself, if it still can ('late' otherwise: nothing changes;
# 'other': another request took it). KEYS: handoff; ARGV: token, arrived, claim_by, write_by.
CLAIM = _NOW + """
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'taken' then return {'other', ''} end
if state ~= 'ready' then return {state or 'gone', ''} end
if now() >= tonumber(ARGV[3]) then return {'late', ''} end
redis.call('HSET', KEYS[1], 'state', 'taken', 'taker', ARGV[1], 'taker_arrived', ARGV[2], 'write_by', ARGV[4])
return {'taken', redis.call('HGET', KEYS[1], 'text')}
"""

# A request stops waiting (its own last attempt, or a worker with nothing to say). Waiting: released,
# the worker delivers through the API. Ready: taken by this request if it still can (ARGV[3..6] as
# CLAIM's; none: it cannot), else released_ready and due at once for the API path. KEYS: handoff,
# deadlines; ARGV: member, channel, token, arrived, claim_by, write_by.
RELEASE = _NOW + """
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'waiting' then
  redis.call('HSET', KEYS[1], 'state', 'released')
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('PUBLISH', ARGV[2], ARGV[1])
  return {'released', ''}
end
if state == 'ready' then
  if ARGV[5] and now() < tonumber(ARGV[5]) then
    redis.call('HSET', KEYS[1], 'state', 'taken', 'taker', ARGV[3], 'taker_arrived', ARGV[4], 'write_by', ARGV[6])
    return {'taken', redis.call('HGET', KEYS[1], 'text')}
  end
  redis.call('HSET', KEYS[1], 'state', 'released_ready')
  redis.call('ZADD', KEYS[2], now(), ARGV[1])
  return {'released_ready', redis.call('HGET', KEYS[1], 'text')}
end
if state == 'taken' then return {'other', ''} end
if state ~= 'released_ready' then redis.call('ZREM', KEYS[2], ARGV[1]) end
return {state or 'gone', ''}
"""

# The taker answered. In time: delivered, recorded passive|sent, the user's passive reply settled.
# Too late (WeChat had given up on that request): recorded passive|uncertain and given back — ready
# for WeChat's next attempt, or (the last attempt) released_ready and due at once for the API path.
# KEYS: handoff, outcomes, flags, deadlines; ARGV: token, in time ('1'/'0'), last attempt ('1'/'0'),
# msg key, bytes, at, maxlen, member, channel.
CONFIRM = _NOW + """
if redis.call('HGET', KEYS[1], 'state') ~= 'taken' or redis.call('HGET', KEYS[1], 'taker') ~= ARGV[1] then
  return 'moved'
end
local status = 'sent'
if ARGV[2] == '1' then
  redis.call('HSET', KEYS[1], 'state', 'delivered')
  redis.call('ZREM', KEYS[4], ARGV[8])
  if redis.call('HGET', KEYS[3], 'offered') == ARGV[4] then redis.call('HDEL', KEYS[3], 'offered') end
else
  status = 'uncertain'
  if ARGV[3] == '1' then
    redis.call('HSET', KEYS[1], 'state', 'released_ready')
    redis.call('ZADD', KEYS[4], now(), ARGV[8])
  else
    redis.call('HSET', KEYS[1], 'state', 'ready')
    redis.call('PUBLISH', ARGV[9], ARGV[8])  -- WeChat's next attempt may be waiting already
  end
end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[7], '*', 'msg', ARGV[4], 'channel', 'passive',
           'status', status, 'code', '0', 'bytes', ARGV[5], 'at', ARGV[6])
return status
"""

# The sweeper's release of a hand-off past its deadline (the user's mailbox entry was admitted
# ``release_after_s`` ago, or it was released since). Ready, released_ready, or taken by a request
# that never confirmed its answer (recorded passive|uncertain: it may have reached WeChat):
# released_ready for the API path, due again ARGV[3] unless its delivery settles — unless someone
# took it over since the sweeper read the deadline list ({'owned'}). Waiting: released. A taken
# hand-off of a webhook that does not confirm its answers (an older version) is left as answered.
# KEYS: handoff, deadlines, outcomes; ARGV: member, channel, due again at, msg key, at, maxlen, grace
# after write_by, the sweeper's now.
RELEASE_LATE = _NOW + """
local state = redis.call('HGET', KEYS[1], 'state')
local due = redis.call('ZSCORE', KEYS[2], ARGV[1])
if due and tonumber(due) > tonumber(ARGV[8]) then return {'owned', ''} end
if state == 'taken' and redis.call('HEXISTS', KEYS[1], 'write_by') == 1 then
  local by = tonumber(redis.call('HGET', KEYS[1], 'write_by')) + tonumber(ARGV[7])
  if now() < by then
    redis.call('ZADD', KEYS[2], by, ARGV[1])
    return {'taken', ''}
  end
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[6], '*', 'msg', ARGV[4], 'channel', 'passive',
             'status', 'uncertain', 'code', '0', 'bytes', '0', 'at', ARGV[5])
  state = 'ready'
end
if state == 'ready' or state == 'released_ready' then
  redis.call('HSET', KEYS[1], 'state', 'released_ready')
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
  return {'released_ready', redis.call('HGET', KEYS[1], 'text')}
end
redis.call('ZREM', KEYS[2], ARGV[1])
if state == 'waiting' then
  redis.call('HSET', KEYS[1], 'state', 'released')
  redis.call('PUBLISH', ARGV[2], ARGV[1])
  return {'released', ''}
end
return {state or 'gone', ''}
"""

# The late delivery of a released reply settled. KEYS: handoff, deadlines, flags; ARGV: member, msg key.
SENT_LATE = """
if redis.call('HGET', KEYS[1], 'state') == 'released_ready' then
  redis.call('HSET', KEYS[1], 'state', 'sent_late')
end
redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('HGET', KEYS[3], 'offered') == ARGV[2] then redis.call('HDEL', KEYS[3], 'offered') end
return 1
"""

# The user's next delivery, under the user's lease, looks at the passive reply still open before it:
# 'settled' (nothing to do; the mark is cleared), {'wait', seconds} (a request can still take it or
# confirm its answer), or {'late', text}: nobody will answer with it any more, so it is this worker's
# to send through the API now, in order (due again ARGV[4] on the deadline list, so the sweeper stays
# away meanwhile). A reply handed to an answer never confirmed is recorded passive|uncertain (taken by
# a webhook that does not confirm its answers, an older version: settled).
# KEYS: handoff, deadlines, outcomes, flags; ARGV: member, msg key, grace after write_by, due again at,
# at, maxlen.
TAKE_OVER = _NOW + """
local state = redis.call('HGET', KEYS[1], 'state')
local t = now()
if state == 'ready' then
  local by = tonumber(redis.call('HGET', KEYS[1], 'claim_by') or '0')
  if t < by then return {'wait', tostring(by - t)} end
elseif state == 'taken' and redis.call('HEXISTS', KEYS[1], 'write_by') == 1 then
  local by = tonumber(redis.call('HGET', KEYS[1], 'write_by')) + tonumber(ARGV[3])
  if t < by then return {'wait', tostring(by - t)} end
  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[6], '*', 'msg', ARGV[2], 'channel', 'passive',
             'status', 'uncertain', 'code', '0', 'bytes', '0', 'at', ARGV[5])
elseif state == 'released_ready' then
  local due = redis.call('ZSCORE', KEYS[2], ARGV[1])
  if due and t < tonumber(due) then return {'wait', tostring(tonumber(due) - t)} end
else
  if redis.call('HGET', KEYS[4], 'offered') == ARGV[2] then redis.call('HDEL', KEYS[4], 'offered') end
  return {'settled', ''}
end
redis.call('HSET', KEYS[1], 'state', 'released_ready')
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
return {'late', redis.call('HGET', KEYS[1], 'text')}
"""

# -- the delivery's passive offers: the hand-off and the delivery's record (``part_sent``,
# :mod:`bot.delivery._pieces`) in one step; keys of one user only (one hash tag), so they also run
# on Redis Cluster.

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
# (:data:`CONFIRM`). ARGV: piece, text, record ttl, msg key, bytes, at, maxlen, channel,
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


# The hand-off side of admitting a message, for a script that appends it to the mailbox in the same
# step (:func:`bot.delivery.handoff.admit_section`). KEYS[1..4]: handoff, deadlines, outcomes, flags;
# ARGV[1..12]: ttl, the state to open with ('waiting', or 'released': nobody waits), release
# deadline, member, then the waiting request's token, arrival, offer_by, claim_by and write_by (''
# when none waits), msg key, outcomes cap, at. The composing script's own keys and args follow.
#
# handoff_again(): nil for a new message; else (a WeChat retry) {state, attempt}. A request that
# waits puts its own limits on the hand-off; the retry of a message whose reply an earlier attempt
# took takes it back (that answer never reached WeChat: had it, WeChat would not have tried again),
# if it still can: {'taken', attempt, text}.
# handoff_open(): the new message's hand-off, on the deadline list when a request waits for it.
ADMIT = """
local function handoff_again()
  if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
  local n = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
  local state = redis.call('HGET', KEYS[1], 'state')
  if ARGV[7] ~= '' then
    if state == 'waiting' or state == 'ready' then
      if tonumber(ARGV[7]) > tonumber(redis.call('HGET', KEYS[1], 'offer_by') or '0') then
        redis.call('HSET', KEYS[1], 'offer_by', ARGV[7], 'claim_by', ARGV[8])
      end
    elseif (state == 'taken' or state == 'delivered')
        and tonumber(ARGV[6]) > tonumber(redis.call('HGET', KEYS[1], 'taker_arrived') or '0') + 1 then
      local t = redis.call('TIME')
      if tonumber(t[1]) + tonumber(t[2]) / 1000000 < tonumber(ARGV[8]) then
        if state == 'delivered' then
          redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[11], '*', 'msg', ARGV[10], 'channel', 'passive',
                     'status', 'retried', 'code', '0', 'bytes', '0', 'at', ARGV[12])
          if not redis.call('HGET', KEYS[4], 'offered') then redis.call('HSET', KEYS[4], 'offered', ARGV[10]) end
        end
        redis.call('HSET', KEYS[1], 'state', 'taken', 'taker', ARGV[5], 'taker_arrived', ARGV[6],
                   'write_by', ARGV[9])
        return {'taken', n, redis.call('HGET', KEYS[1], 'text')}
      end
    end
  end
  return {state, n}
end
local function handoff_open()
  redis.call('HSET', KEYS[1], 'state', ARGV[2], 'attempts', 1)
  if ARGV[7] ~= '' then redis.call('HSET', KEYS[1], 'offer_by', ARGV[7], 'claim_by', ARGV[8]) end
  redis.call('EXPIRE', KEYS[1], ARGV[1])
  if ARGV[2] == 'waiting' then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4]) end
end
"""

# The hand-off side of :meth:`bot.queue.Mailbox.accept`, whose script keeps to one user's keys (one
# hash tag): KEYS[1] handoff; ARGV[1..2]: ttl, the state to open with (the deadline list is written
# after it, :meth:`bot.delivery.handoff.Handoff.queue_due`). The composing script's own keys and
# args follow. handoff_accepted(): {state, attempt} of a WeChat retry, or nil once a new message's
# hand-off is opened.
ACCEPT = """
local function handoff_accepted()
  if redis.call('EXISTS', KEYS[1]) == 1 then
    local n = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
    return {redis.call('HGET', KEYS[1], 'state'), n}
  end
  redis.call('HSET', KEYS[1], 'state', ARGV[2], 'attempts', 1)
  redis.call('EXPIRE', KEYS[1], ARGV[1])
  return nil
end
"""
