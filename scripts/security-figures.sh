#!/bin/sh
# The figures of docs/security.md, recomputed: attack tests tried / detected / missed, and the
# byte-flip tallies. Run from the repository root:
#
#   sh scripts/security-figures.sh
#
# Each attack below is a test that performs it and asserts the defence. "Detected" means the
# test passed (the defence held), "missed" that it failed, "absent" that no test of that name
# ran (renamed or removed: fix this list). Exit 0 only if every attack was detected.
set -u
cd "$(dirname "$0")/.." || exit 2

# target|test name (as libtest prints it)|the attack
ATTACKS='
lib|log::protocol::tests::genesis_problems|a malformed genesis (seats, keys, chain length, nonce) accepted as a game
lib|log::protocol::tests::join_problems|a join at the wrong seq or prev, twice, by a stranger, with a bad anchor
lib|log::protocol::tests::in_play_problems|wrong game/seq/prev, a bad reveal, an entry by a seat not expected
lib|log::protocol::tests::compare_logs|a second copy of a log passed off as the same game
lib|log::protocol::tests::a_forged_copy_never_frames_a_seat|a forged copy (one character, zero signature, another key) as proof of a fork
lib|log::protocol::tests::parallel_joins_make_one_game|simultaneous joins fork the game
lib|log::protocol::tests::only_the_named_revealer_answers|the dice of an entry settled by a seat it did not name
lib|log::protocol::tests::body_limits|oversized notes, orders, lists in a signed body
lib|log::entry::tests::every_single_byte_flip_is_caught|one bit changed in a signed entry
lib|log::entry::tests::parse_errors|duplicate keys, anchors, tags, directives, reordered headers in an entry
lib|log::entry::tests::folded_plain_scalars_never_make_a_separator_line|a value that writes a `---` line and splits the log
lib|log::yamlscan::tests::billion_laughs_is_refused_quickly|alias expansion (billion laughs) in an entry
lib|log::yamlscan::tests::depth_is_bounded_wherever_yaml_is_read|deep YAML nesting wherever YAML is read
lib|crypto::seal::tests::padding_hides_the_length_and_is_checked|a sealed note whose length tells its content
lib|crypto::seal::tests::seal_round_trip_and_failures|a sealed note opened with a wrong key, nonce or seq
lib|crypto::seal::tests::weak_partner_refused|a note sealed for a small-order partner key
lib|engine::toy::tests::nothing_hidden_appears_in_plain_text|a hidden value readable in what is sent
lib|engine::toy::tests::an_opening_that_does_not_match_is_refused|an opening that does not match its commitment
lib|engine::toy::tests::an_opened_value_the_rules_refuse_is_refused_in_public_mode|an opened value the rules forbid
lib|engine::toy::tests::the_omniscient_pass_names_a_lying_move|a hidden move that was illegal, found when opened
lib|engine::toy::tests::a_partner_reads_the_note_sealed_for_it_and_the_other_side_cannot|the other side reads a note sealed for a partner
lib|engine::toy::tests::a_draw_without_its_commitment_or_with_a_bad_secret_is_refused|a private draw without commitment or with a chosen secret
lib|engine::toy::tests::a_seat_cannot_make_a_leading_roll_ordinary_or_the_reverse|a leading roll made ordinary (or the reverse) to pick a roll
lib|engine::toy::tests::nobody_amends_or_offers_a_draw_while_one_side_alone_knows_a_roll|an amendment or draw offer while one side alone knows a roll
lib|engine::toy::tests::a_take_back_never_lets_a_seat_preview_a_reroll|a take-back that previews a re-roll
lib|engine::toy::tests::a_draw_offer_carries_no_reveal_and_lapses|a lost draw offer leaks a reveal to grind against
lib|engine::toy::tests::a_withheld_opening_keeps_the_game_open|the end-of-game openings withheld after a win
tamper|every_structural_tampering_is_refused|entries dropped, swapped, duplicated, re-chained, re-signed
tamper|a_log_cut_mid_entry_is_refused|a log cut mid-entry
tamper|entries_of_one_game_are_refused_in_another|entries of one game replayed in another
hidden_leaks|fww_sealed_notes_of_one_kind_have_one_length|sealed note lengths tell which pieces (The First World War)
hidden_leaks|ge_committed_values_fit_their_bounds|a committed value longer than its bound (padding leak)
hidden_leaks|fww_deployment_ids_do_not_follow_the_writing_order|commitment ids follow the writing order (deployment)
hidden_leaks|fww_hide_ids_do_not_follow_the_writing_order|commitment ids follow the writing order (hide)
hidden_leaks|fww_pieces_the_rules_turn_down_go_down_without_a_hide|pieces left face up until their owner hides them
hostile_input|deep_nesting_in_a_signed_genesis_scenario_is_refused|deep nesting in a signed genesis scenario
hostile_input|deep_nesting_in_orders_scenario_and_key_files_is_refused|deep nesting in orders, scenario and key files
hostile_input|nesting_at_the_limit_is_only_judged_on_its_merits|nesting just under the limit refused by mistake
hostile_input|a_hostile_note_reaches_the_terminal_escaped|terminal escapes in a note
hostile_input|hostile_scenario_and_key_names_are_escaped|terminal escapes in scenario and key names
hostile_input|out_existing_is_refused_before_the_log_changes|--out onto an existing file leaves a log entry unsent
hostile_input|a_bad_genesis_says_what_is_wrong|a bad genesis (weak key, chain length, duplicate seat)
hostile_input|new_refuses_games_that_cannot_be_played|a game no rule can play
hostile_input|non_regular_files_are_refused_promptly|a FIFO, /dev/zero or a directory as an input
hostile_input|stale_temporary_files_are_removed_at_the_next_append|temporary files left by a killed writer
cli|any_single_byte_change_fails_verify|one byte changed in a demo game log (umpire verify)
cli|bad_input_is_refused_and_the_log_is_untouched|bad entries given to apply change the log
protocol_vectors|vector_log_tampering_is_caught|one byte changed in the protocol-2 vector log
mail|a_message_without_an_entry_is_an_error|a message with no entry taken as one
byte_flips|every_bit_of_the_vector_log|every bit of the vector log flipped
byte_flips|three_bits_of_every_byte_of_a_real_game_start|three bits of every byte of a real game start flipped
byte_flips|random_byte_changes_of_a_real_game_start|random bytes of a real game start changed
fuzz_regressions|log_split_inputs|inputs found by fuzzing (logs)
fuzz_regressions|entry_parse_inputs|inputs found by fuzzing (entries)
fuzz_regressions|protocol_entries_inputs|inputs found by fuzzing (protocol-2 edits)
fuzz_regressions|mail_message_inputs|inputs found by fuzzing (mail)
'

out=$(mktemp -d) || exit 2
trap 'rm -rf "$out"' EXIT
targets=$(printf '%s\n' "$ATTACKS" | grep '|' | cut -d'|' -f1 | sort -u)
for t in $targets; do
    names=$(printf '%s\n' "$ATTACKS" | grep "^$t|" | cut -d'|' -f2)
    if [ "$t" = lib ]; then sel="--lib"; else sel="--test $t"; fi
    # shellcheck disable=SC2086
    cargo test --release $sel -- --exact $names --test-threads 1 >"$out/$t.log" 2>&1
done

tried=0 detected=0 missed=0 absent=0
IFS='
'
for line in $(printf '%s\n' "$ATTACKS" | grep '|'); do
    t=${line%%|*}
    rest=${line#*|}
    name=${rest%%|*}
    tried=$((tried + 1))
    if grep -q "^test $name \.\.\. ok$" "$out/$t.log"; then
        detected=$((detected + 1))
    elif grep -q "^test $name \.\.\. FAILED$" "$out/$t.log"; then
        missed=$((missed + 1))
        echo "MISSED: $t $name (${rest#*|})"
    else
        absent=$((absent + 1))
        echo "ABSENT: $t $name (no such test ran)"
    fi
done
echo "attacks: tried $tried, detected $detected, missed $missed, absent $absent"

cargo test --release -q --test byte_flips -- --nocapture --test-threads 1 2>/dev/null | grep -o 'byte flips.*'
[ "$missed" -eq 0 ] && [ "$absent" -eq 0 ]
