extension LuaDissector {
    /// The plugin's code: fixed, whatever the profile. It mirrors `FrameAssembler`,
    /// `DecodedFields`, `ChecksumSpec`, `CRCParameters` and `Expression` (numbers are Lua 5.2
    /// doubles and bitwise operators work on 32 bits: `refusal` turns away expressions whose
    /// values could leave the range where they agree with bledecode's 64-bit integers).
    static let runtime = #"""
-- The plugin's fixed part: everything above is data from the profile.
local bit = bit32

local f_att = Field.new("btatt")
local f_uuid16 = Field.new("btatt.uuid16")
local f_uuid128 = Field.new("btatt.uuid128")
local f_chandle = Field.new("bthci_acl.chandle")
local f_access_address = Field.new("btle.access_address")
local f_event_code = Field.new("bthci_evt.code")
local f_event_handle = Field.new("bthci_evt.connection_handle")
local f_subevent = Field.new("bthci_evt.le_meta_subevent")
local f_bd_addr = Field.new("bthci_evt.bd_addr")

local proto = Proto("bledecode", "bledecode vendor frame")
local pf = {
  profile = ProtoField.string("bledecode.profile", "Profile"),
  direction = ProtoField.string("bledecode.direction", "Direction"),
  handle = ProtoField.uint16("bledecode.handle", "Handle", base.HEX),
  frame = ProtoField.bytes("bledecode.frame", "Frame"),
  command = ProtoField.uint32("bledecode.command", "Command", base.HEX),
  command_name = ProtoField.string("bledecode.command_name", "Command name"),
  sequence = ProtoField.uint32("bledecode.sequence", "Sequence", base.HEX),
  status = ProtoField.uint32("bledecode.status", "Status", base.HEX),
  crc_ok = ProtoField.bool("bledecode.crc_ok", "Checksum OK"),
  plaintext = ProtoField.bytes("bledecode.plaintext", "Plaintext"),
  status_ok = ProtoField.bool("bledecode.status_ok", "Status is a success"),
  malformed = ProtoField.string("bledecode.malformed", "Malformed"),
  fragment = ProtoField.framenum("bledecode.fragment", "Fragment in frame"),
}
proto.fields = { pf.profile, pf.direction, pf.handle, pf.frame, pf.command, pf.command_name, pf.sequence,
                 pf.status, pf.status_ok, pf.crc_ok, pf.plaintext, pf.malformed, pf.fragment }

-- Bytes are Lua arrays of numbers, 1-based; offsets from the profile are 0-based.

local function unsigned(bytes, offset, size, big)
  if offset < 0 or size < 1 or size > 8 or offset + size > #bytes then return nil end
  local value = 0
  for i = 0, size - 1 do
    local byte = big and bytes[offset + i + 1] or bytes[offset + size - i]
    value = value * 256 + byte
  end
  return value
end

local function hex(bytes)
  local parts = {}
  for i = 1, #bytes do parts[i] = string.format("%02x", bytes[i]) end
  return table.concat(parts)
end

-- A bytes field: shown over a data source of its own (Wireshark's "Frame" and "Plaintext" tabs).
local function add_bytes(item, field, bytes, name)
  if #bytes == 0 then return end
  item:add(field, ByteArray.new(hex(bytes)):tvb(name):range())
end

local function slice(bytes, first, last)
  local out = {}
  for i = first, last do out[#out + 1] = bytes[i] end
  return out
end

-- True when bytes[at + 1 ..] holds pattern (at is 0-based).
local function holds_at(bytes, at, pattern)
  if at < 0 or #bytes - at < #pattern then return false end
  for i = 1, #pattern do if bytes[at + i] ~= pattern[i] then return false end end
  return true
end

local function starts_with(bytes, prefix) return holds_at(bytes, 0, prefix) end

local function starts_with_any(bytes, patterns)
  for _, pattern in ipairs(patterns) do if starts_with(bytes, pattern) then return true end end
  return false
end

local function same_bytes(a, b) return #a == #b and starts_with(a, b) end

-- Expressions (docs/profiles.md): trees of tables, evaluated here; errors are raised as tables.
local function fail(message) error({ message = message }, 0) end

local function evaluate(e, ctx)
  local kind = e[1]
  if kind == "lit" then return e[2]
  elseif kind == "var" then
    local value = ctx[e[2]]
    if value == nil then fail(e[2] .. " has no value here") end
    return value
  elseif kind == "byte" then
    local n = evaluate(e[2], ctx)
    if n < 0 or n >= #ctx.frame or n ~= math.floor(n) then
      fail("byte[" .. n .. "] is outside the " .. #ctx.frame .. "-byte frame")
    end
    return ctx.frame[n + 1]
  elseif kind == "neg" then return -evaluate(e[2], ctx)
  elseif kind == "not" then return -evaluate(e[2], ctx) - 1
  end
  local op, a, b = e[2], evaluate(e[3], ctx), evaluate(e[4], ctx)
  if op == "|" then return bit.bor(a, b)
  elseif op == "^" then return bit.bxor(a, b)
  elseif op == "&" then return bit.band(a, b)
  elseif op == "+" then return a + b
  elseif op == "-" then return a - b
  elseif op == "*" then return a * b
  elseif op == "<<" or op == ">>" then
    if b < 0 or b > 63 then fail("shift by " .. b .. " is outside 0...63") end
    if op == "<<" then return a * 2 ^ b end
    return math.floor(a / 2 ^ b)
  elseif op == "/" or op == "%" then
    if b == 0 then fail("division by zero") end
    if op == "/" then
      local q = a / b
      return q >= 0 and math.floor(q) or math.ceil(q)
    end
    return a % math.abs(b)
  end
  fail("unknown operator")
end

-- Checksums (the Rocksoft model for CRCs, as bledecode's CRCParameters).
local function reflect(value, bits)
  local out = 0
  for i = 0, bits - 1 do
    if bit.band(value, 2 ^ i) ~= 0 then out = out + 2 ^ (bits - 1 - i) end
  end
  return out
end

local function check_value(c, bytes, first, last)
  if c.alg == "sum8" or c.alg == "sum16" then
    local sum = 0
    for i = first, last do sum = sum + bytes[i] end
    return sum % (c.alg == "sum8" and 256 or 65536)
  elseif c.alg == "xor8" then
    local x = 0
    for i = first, last do x = bit.bxor(x, bytes[i]) end
    return x
  end
  local mask = 2 ^ c.width - 1
  local top = 2 ^ (c.width - 1)
  local register = c.init
  for i = first, last do
    local input = c.refin and reflect(bytes[i], 8) or bytes[i]
    for b = 7, 0, -1 do
      local in_bit = bit.band(bit.rshift(input, b), 1)
      local top_bit = bit.band(register, top) ~= 0 and 1 or 0
      register = bit.band(register * 2, mask)
      if bit.bxor(top_bit, in_bit) == 1 then register = bit.bxor(register, c.poly) end
    end
  end
  if c.refout then register = reflect(register, c.width) end
  return bit.bxor(register, c.xorout)
end

local function check_size(c)
  if c.alg == "crc" then return math.floor((c.width + 7) / 8) end
  return c.alg == "sum16" and 2 or 1
end

-- The name of a frame's command; a response's is its command's.
local function command_name(direction, command, sequence, raw)
  local c = P.commands
  if command == nil or c == nil then return nil end
  if c.names[command] then return c.names[command] end
  if direction ~= "device-to-host" then return nil end
  if c.response_table then
    local found, count = nil, 0
    for code, response in pairs(c.response_table) do
      if response == command then found, count = code, count + 1 end
    end
    return count == 1 and c.names[found] or nil
  end
  for _, code in ipairs(c.codes) do
    local ok, value = pcall(evaluate, c.response, { seq = sequence, cmd = code, frame = raw })
    if ok and value == command then return c.names[code] end
  end
  return nil
end

-- The fields of one cut frame, as bledecode's DecodedFields.
local function decode(raw, direction)
  local d = {}
  local c = P.commands
  local f = P.framings[direction]
  if c then
    d.command = unsigned(raw, c.command.offset, c.command.size, c.command.big)
    if c.sequence then d.sequence = unsigned(raw, c.sequence.offset, c.sequence.size, c.sequence.big) end
  end
  local payload_start, payload_end = f.payload_offset, #raw - f.trailer
  if not (payload_end >= payload_start and payload_start >= 0 and payload_end <= #raw) then
    d.problem = #raw .. " bytes cannot hold a " .. payload_start .. "-byte header and " .. f.trailer .. "-byte trailer"
    return d
  end
  if not holds_at(raw, #raw - #f.tail, f.tail) then
    d.problem = "tail is " .. hex(slice(raw, math.max(#raw - #f.tail, 0) + 1, #raw)) .. ", expected " .. hex(f.tail)
    return d
  end
  local payload = slice(raw, payload_start + 1, payload_end)
  local plaintext = {}
  local o = P.obfuscation
  local ok, err = pcall(function()
    if o == nil then
      for i = 1, #payload do plaintext[i] = payload[i] end
    elseif o.kind == "key" then
      for i = 1, #payload do
        plaintext[i] = #o.key == 0 and payload[i] or bit.bxor(payload[i], o.key[(i - 1) % #o.key + 1])
      end
    else
      local length
      if f.length.kind == "field" then length = unsigned(raw, f.length.offset, f.length.size, f.length.big) end
      local ctx = { seq = d.sequence, cmd = d.command, len = length, frame = raw }
      local key
      if not o.per_byte and #payload > 0 then
        ctx.index = 0
        key = evaluate(o.expr, ctx) % 256
      end
      for i = 1, #payload do
        if o.per_byte then
          ctx.index = i - 1
          key = evaluate(o.expr, ctx) % 256
        end
        plaintext[i] = bit.bxor(payload[i], key)
      end
    end
  end)
  if not ok then
    d.problem = "XOR key: " .. (type(err) == "table" and err.message or tostring(err))
    return d
  end
  local cs = P.checksum
  if cs then
    local covered = raw
    if cs.over_plaintext then
      covered = slice(raw, 1, payload_start)
      for i = 1, #plaintext do covered[#covered + 1] = plaintext[i] end
      for i = payload_end + 1, #raw do covered[#covered + 1] = raw[i] end
    end
    local size = check_size(cs)
    local position = cs.at >= 0 and cs.at or #raw + cs.at
    local first = cs.from >= 0 and cs.from or #covered + cs.from
    local last = cs.to > 0 and cs.to or #covered + cs.to
    local stored = (position >= 0 and position + size <= #raw) and unsigned(raw, position, size, cs.big) or nil
    if stored == nil or first < 0 or last > #covered or first > last then
      d.problem = #raw .. " bytes cannot hold the checksum at " .. cs.at
      return d
    end
    local computed
    if first == last and cs.empty ~= nil then computed = cs.empty else computed = check_value(cs, covered, first + 1, last) end
    d.crc_ok = stored == computed
  end
  local s = c and c.status
  if direction == "device-to-host" and s and (s.commands == nil or (d.command ~= nil and s.commands[d.command])) then
    d.status = unsigned(plaintext, s.offset, s.size, true)
    if d.status ~= nil then d.status_ok = s.success[d.status] == true end
  end
  d.plaintext = plaintext
  return d
end

-- Frame assembly per stream, as bledecode's FrameAssembler, with the stream's direction's framing.
local function new_assembler(framing) return { framing = framing, buffer = {}, pieces = {}, last_short = false } end

local function take(a, count)
  local bytes, rest = {}, {}
  for i = 1, #a.buffer do
    if i <= count then bytes[#bytes + 1] = a.buffer[i] else rest[#rest + 1] = a.buffer[i] end
  end
  a.buffer = rest
  local frames, needed = {}, count
  while needed > 0 and #a.pieces > 0 do
    local piece = a.pieces[1]
    frames[#frames + 1] = piece.frame
    local used = math.min(needed, piece.remaining)
    needed = needed - used
    piece.remaining = piece.remaining - used
    if piece.remaining == 0 then table.remove(a.pieces, 1) end
  end
  return { bytes = bytes, frames = frames }
end

local function measure(f, bytes, short)
  local l = f.length
  if l.kind == "fixed" then return "frame", l.size end
  if l.kind == "none" then
    if short then return "frame", #bytes end
    return "unended"
  end
  local value = unsigned(bytes, l.offset, l.size, l.big)
  if value == nil then return "incomplete" end
  local total
  if l.counts == "payload" then total = f.payload_offset + value + l.adjust + f.trailer
  elseif l.counts == "frame" then total = value + l.adjust
  else total = l.offset + l.size + value + l.adjust end
  local minimum = math.max(l.offset + l.size, f.payload_offset + f.trailer, #f.syncs[1] + #f.tail, 1)
  if total < minimum or total > f.max_length then
    return "impossible", "impossible length " .. value .. " (frame of " .. total .. " bytes, limits " .. minimum .. "..."
      .. f.max_length .. ")"
  end
  return "frame", total
end

-- Where the sync bytes or, earlier, one of their alternatives first occur (0-based), or nil.
local function sync_offset(f, buffer)
  local earliest
  for _, sync in ipairs(f.syncs) do
    for i = 0, math.min(#buffer - #sync, earliest and earliest - 1 or #buffer) do
      if holds_at(buffer, i, sync) then earliest = i break end
    end
  end
  return earliest
end

-- The length of the sync (or alternative) the buffer starts with; 0 when none.
local function sync_length_at_front(f, buffer)
  for _, sync in ipairs(f.syncs) do if starts_with(buffer, sync) then return #sync end end
  return 0
end

-- The longest buffer suffix that is a proper beginning of a sync, or of the prefix and a sync.
local function partial_head_suffix(f, buffer)
  local longest = 0
  for _, sync in ipairs(f.syncs) do
    local head = {}
    for i = 1, #f.prefix do head[#head + 1] = f.prefix[i] end
    for i = 1, #sync do head[#head + 1] = sync[i] end
    for k = math.min(#head - 1, #buffer), longest + 1, -1 do
      local at = #buffer - k
      local begins_head = holds_at(buffer, at, slice(head, 1, k))
      local begins_sync = k <= #sync and holds_at(buffer, at, slice(sync, 1, k))
      if begins_head or begins_sync then longest = k break end
    end
  end
  return longest
end

local function cut_frames(a, short, out)
  local f = a.framing
  while #a.buffer > 0 do
    local resync = false
    if #f.syncs[1] > 0 then
      local skip = sync_offset(f, a.buffer)
      if skip == nil then
        local keep = partial_head_suffix(f, a.buffer)
        if #a.buffer > keep then out[#out + 1] = { cut = take(a, #a.buffer - keep), problem = "no sync bytes" } end
        return
      end
      local p = #f.prefix
      if p > 0 and skip >= p and holds_at(a.buffer, skip - p, f.prefix) then
        -- The optional prefix is no part of the frame: dropped, after any garbage before it.
        if skip > p then out[#out + 1] = { cut = take(a, skip - p), problem = (skip - p) .. " byte(s) before the sync bytes" } end
        take(a, p)
        resync = true
      elseif skip > 0 then
        out[#out + 1] = { cut = take(a, skip), problem = skip .. " byte(s) before the sync bytes" }
        resync = true
      end
    end
    if not resync then
      local kind, n = measure(f, a.buffer, short)
      if kind == "incomplete" then return
      elseif kind == "impossible" then
        out[#out + 1] = { cut = take(a, math.max(sync_length_at_front(f, a.buffer), 1)), problem = n }
      elseif kind == "unended" then
        if #a.buffer > f.max_length then
          out[#out + 1] = { cut = take(a, #a.buffer), problem = "longer than " .. f.max_length .. " bytes without an end" }
        end
        return
      else
        if #a.buffer < n then return end
        out[#out + 1] = { cut = take(a, n) }
      end
    end
  end
end

local function feed(a, value, frame, limit, out)
  local f = a.framing
  -- A buffer holding just the optional prefix waits for the sync that follows it.
  if #a.buffer > 0 and a.last_short and #f.syncs[1] > 0 and starts_with_any(value, f.syncs) and f.length.kind ~= "none"
      and (#f.prefix == 0 or not same_bytes(a.buffer, f.prefix)) then
    out[#out + 1] = { cut = take(a, #a.buffer),
                      problem = "incomplete frame: a fragment shorter than ATT_MTU − 3 came before its length was reached" }
  end
  if #value == 0 then return end
  -- A frame that never spans values ends with its value, whatever the MTU.
  local short = #value < limit or not f.spans_values
  a.last_short = short
  for i = 1, #value do a.buffer[#a.buffer + 1] = value[i] end
  a.pieces[#a.pieces + 1] = { remaining = #value, frame = frame }
  cut_frames(a, short, out)
  if not f.spans_values and #a.buffer > 0 then
    out[#out + 1] = { cut = take(a, #a.buffer), problem = "incomplete frame: frames never span ATT values (framing.spansValues)" }
  end
end

-- State of the first pass: links by connection handle or access address, frames by packet.
local results = {}
local links = {}
local services_by_peer = {}

local function link_for(key)
  local l = links[key]
  if l == nil then
    l = { mtu = 23, streams = {}, order = {}, services = {} }
    links[key] = l
  end
  return l
end

local function record(number, direction, handle, output)
  local frame = { direction = direction, handle = handle, raw = output.cut.bytes, fragments = output.cut.frames }
  if output.problem then
    frame.problem = output.problem
  else
    local d = decode(output.cut.bytes, direction)
    frame.command, frame.sequence, frame.problem = d.command, d.sequence, d.problem
    frame.plaintext, frame.crc_ok, frame.status, frame.status_ok = d.plaintext, d.crc_ok, d.status, d.status_ok
    frame.name = command_name(direction, d.command, d.sequence, output.cut.bytes)
  end
  local list = results[number] or {}
  list[#list + 1] = frame
  results[number] = list
end

local function link_down(key, number)
  local l = links[key]
  if l == nil then return end
  table.sort(l.order)
  for _, stream in ipairs(l.order) do
    local a = l.streams[stream]
    if #a.buffer > 0 then
      record(number, a.direction, a.handle, { cut = take(a, #a.buffer), problem = "incomplete frame when the link dropped" })
    end
  end
  links[key] = nil
end

local function uuid_text(bytes_le)
  local parts = {}
  for i = #bytes_le, 1, -1 do parts[#parts + 1] = string.format("%02X", bytes_le[i]) end
  local text = table.concat(parts)
  if #text == 4 then return "0000" .. text .. "00001000800000805F9B34FB" end
  return text
end

local function carries(direction, opcode, handle, uuid)
  for _, channel in ipairs(P.channels) do
    if channel.dir == direction and channel.ops[opcode] then
      if channel.handle ~= nil and channel.handle == handle then return true end
      if channel.uuid ~= nil and channel.uuid == uuid then return true end
    end
  end
  return false
end

local function has_service(l)
  if P.gatt_service == nil then return true end
  if l.services[P.gatt_service] then return true end
  local known = l.peer and services_by_peer[l.peer]
  return known ~= nil and known[P.gatt_service] == true
end

local function att_pdu(l, b, direction, uuid, number)
  local opcode = b[1]
  if opcode == 0x02 and #b >= 3 then
    l.client_mtu = unsigned(b, 1, 2, false)
  elseif opcode == 0x03 and #b >= 3 and l.client_mtu then
    l.mtu = math.max(23, math.min(l.client_mtu, unsigned(b, 1, 2, false)))
  elseif opcode == 0x10 then
    l.group_type = #b == 7 and unsigned(b, 5, 2, false) or nil
  elseif opcode == 0x11 and #b >= 2 and l.group_type == 0x2800 and b[2] > 4 then
    local size = b[2]
    local i = 3
    while i + size - 1 <= #b do
      local service = uuid_text(slice(b, i + 4, i + size - 1))
      l.services[service] = true
      if l.peer then
        services_by_peer[l.peer] = services_by_peer[l.peer] or {}
        services_by_peer[l.peer][service] = true
      end
      i = i + size
    end
  elseif (opcode == 0x12 or opcode == 0x52 or opcode == 0x1B or opcode == 0x1D) and #b >= 3 then
    local handle = unsigned(b, 1, 2, false)
    if not carries(direction, opcode, handle, uuid) or not has_service(l) then return end
    local key = direction .. " " .. string.format("%05d", handle)
    local a = l.streams[key]
    if a == nil then
      a = new_assembler(P.framings[direction])
      a.direction, a.handle = direction, handle
      l.streams[key] = a
      l.order[#l.order + 1] = key
    end
    local out = {}
    feed(a, slice(b, 4, #b), number, math.max(l.mtu - 3, 1), out)
    for _, output in ipairs(out) do record(number, direction, handle, output) end
  end
end

local function analyse(pinfo)
  local number = pinfo.number
  local code = f_event_code()
  local event_handle = f_event_handle()
  if code and event_handle then
    local key = "hci " .. event_handle.value
    if code.value == 0x05 then
      link_down(key, number)
    elseif code.value == 0x3E then
      local sub = f_subevent()
      if sub and (sub.value == 0x01 or sub.value == 0x0A or sub.value == 0x29) then
        link_down(key, number)
        local l = link_for(key)
        local address = f_bd_addr()
        if address then l.peer = tostring(address.value) end
      end
    end
  end
  local pdus = { f_att() }
  if #pdus == 0 then return end
  local key
  local chandle = f_chandle()
  if chandle then
    key = "hci " .. chandle.value
  else
    local aa = f_access_address()
    if aa == nil then return end
    key = "air " .. aa.value
  end
  local l = link_for(key)
  -- As bledecode: what the capture's side (or the central, over the air) sent goes to the device.
  local direction = pinfo.p2p_dir == 0 and "host-to-device" or "device-to-host"
  local uuid
  local u16 = f_uuid16()
  local u128 = f_uuid128()
  if u16 then
    uuid = string.format("0000%04X00001000800000805F9B34FB", u16.value)
  elseif u128 then
    uuid = string.upper(string.gsub(tostring(u128.value), "[^%x]", ""))
  end
  for _, pdu in ipairs(pdus) do
    local range = pdu.range
    if range then
      local bytes = range:bytes()
      local b = {}
      for i = 0, bytes:len() - 1 do b[i + 1] = bytes:get_index(i) end
      if #b > 0 then att_pdu(l, b, direction, uuid, number) end
    end
  end
end

-- A new file (or a reload) starts from nothing: Wireshark keeps the plugin loaded between files.
function proto.init()
  results = {}
  links = {}
  services_by_peer = {}
end

function proto.dissector(tvb, pinfo, tree)
  if not pinfo.visited then analyse(pinfo) end
  local list = results[pinfo.number]
  if list == nil then return end
  for _, frame in ipairs(list) do
    local item = tree:add(proto)
    item:add(pf.profile, P.name)
    item:add(pf.direction, frame.direction)
    item:add(pf.handle, frame.handle)
    add_bytes(item, pf.frame, frame.raw, "Vendor frame")
    for _, fragment in ipairs(frame.fragments) do item:add(pf.fragment, fragment) end
    if frame.command and frame.command <= 0xFFFFFFFF then item:add(pf.command, frame.command) end
    if frame.name then item:add(pf.command_name, frame.name) end
    if frame.sequence and frame.sequence <= 0xFFFFFFFF then item:add(pf.sequence, frame.sequence) end
    if frame.status and frame.status <= 0xFFFFFFFF then item:add(pf.status, frame.status) end
    if frame.status_ok ~= nil then item:add(pf.status_ok, frame.status_ok) end
    if frame.crc_ok ~= nil then item:add(pf.crc_ok, frame.crc_ok) end
    if frame.plaintext then add_bytes(item, pf.plaintext, frame.plaintext, "Plaintext") end
    if frame.problem then item:add(pf.malformed, frame.problem) end
    local label = (frame.name or (frame.command and string.format("0x%02X", frame.command)) or "frame")
    if frame.problem then label = "malformed: " .. frame.problem end
    item:append_text(": " .. label)
  end
end

register_postdissector(proto, true)
"""#
}
