// The one file that says what each glyph of the four Debian icon packages means in the icon
// vocabulary (icon-recognition.md, "Training icons"). Kept as text so that it reads and diffs as
// the table it is; `GlyphTypes` parses it. Edit the text, not the code.

extension GlyphTypes {
    static let table = #"""
# glyph-types.txt: icon vocabulary types for the glyphs of four Debian icon packages
#
# The one file that says what each training glyph means for the icon classifier
# (vocabulary version 1 of /work/shared/specs/icon-recognition.md: 52 types + other).
# Packages (Debian versions as installed):
#   material      fonts-material-design-icons-iconfont 6.7.0+dfsg-1
#                 names: /usr/share/fonts-material-design-icons-iconfont/scss/_variables.scss
#                 font:  /usr/share/fonts/truetype/material-design-icons-iconfont/MaterialIcons-Regular.ttf
#   font-awesome  fonts-font-awesome 5.0.10+really4.7.0~dfsg-4.1 (Font Awesome 4.7)
#                 names: /usr/share/fonts-font-awesome/css/font-awesome.css
#                 font:  /usr/share/fonts/truetype/font-awesome/fontawesome-webfont.ttf
#   fork-awesome  fonts-fork-awesome 1.2.0+ds1-1
#                 names: /usr/share/fonts-fork-awesome/icons.yml
#                 font:  /usr/share/fonts/truetype/fork-awesome/forkawesome-webfont.ttf
#   bootstrap     bootstrap-icons 1.10.3+dfsg-1, /usr/share/bootstrap-icons/svg/NAME.svg
#
# Rules
#   * One section per vocabulary type, in the spec's table order, then [exclude].
#     Lines are `family: name name ...`; a family may take several lines.
#   * A glyph listed under a type is trained as that type.
#   * A glyph listed under [exclude] is never used (neither as a type nor as
#     `other`): it looks like one of our types but means something else, or is
#     ambiguous, and would teach the classifier a contradiction.
#   * Every glyph not listed anywhere is `other` ("none of ours").
#   * A glyph is its codepoint (bootstrap: its SVG file).  Each glyph is listed
#     once, under one name: Font Awesome and Fork Awesome by their canonical id
#     (never an alias), material by one of its names where _variables.scss gives
#     a codepoint two names (e.g. favorite_border, not favorite_outline;
#     more_horiz, not keyboard_control).  Readers must resolve names to
#     codepoints: the aliases of a listed glyph share its status, they are
#     not `other`.
#   * material `goat` is in _variables.scss (U+EBFF) but not in the font: skip it.
#   * Variants count as the type: filled/outlined, circled, squared
#     (bootstrap -fill/-circle/-square/-btn, Font Awesome -o, material _outline).
#   * Policy for borderline glyphs, applied across all four families:
#       - a type's shape with a badge or second symbol that changes the meaning
#         (plus, minus, check, x, slash, heart, star, gear, lock, clock, arrow,
#         person...) -> exclude; a badge in the corner of a shape that is not one
#         of ours (folder, building, database, window) stays `other`;
#       - a shape (nearly) identical to a type's but named for another meaning
#         (west = arrow_back, wb_cloudy = cloud, crop_original = image) -> exclude;
#       - when in doubt between a type and exclude: exclude; between exclude and
#         other: exclude.
#   * Checked by check_names.py (names exist, no glyph twice, one name per
#     codepoint, canonical ids, sections = the spec's vocabulary).  Contact
#     sheets of every type and of each whole family are in sheets/.

[back]
material: arrow_back arrow_back_ios arrow_back_ios_new chevron_left keyboard_arrow_left navigate_before arrow_circle_left
font-awesome: arrow-left chevron-left angle-left arrow-circle-left arrow-circle-o-left chevron-circle-left long-arrow-left
fork-awesome: arrow-left chevron-left angle-left arrow-circle-left arrow-circle-o-left chevron-circle-left long-arrow-left
bootstrap: arrow-left arrow-left-short arrow-left-circle arrow-left-circle-fill arrow-left-square arrow-left-square-fill chevron-left
bootstrap: chevron-compact-left
[forward]
# why: material `forward` and bootstrap `forward`/`forward-fill` are straight block arrows pointing right
# (mail forward); their label "Forward" is right either way.  arrow_right_alt is a plain right arrow;
# its twins east and trending_flat mean a compass direction / a chart trend: excluded.
material: arrow_forward arrow_forward_ios chevron_right keyboard_arrow_right navigate_next arrow_circle_right arrow_right_alt forward
font-awesome: arrow-right chevron-right angle-right arrow-circle-right arrow-circle-o-right chevron-circle-right long-arrow-right
fork-awesome: arrow-right chevron-right angle-right arrow-circle-right arrow-circle-o-right chevron-circle-right long-arrow-right
bootstrap: arrow-right arrow-right-short arrow-right-circle arrow-right-circle-fill arrow-right-square arrow-right-square-fill
bootstrap: chevron-right chevron-compact-right forward forward-fill
[close]
# why: an X in a square (disabled_by_default, window-close, x-square) reads as close too; an X in an
# octagon/diamond (errors) and the backspace key shape are excluded.
material: close clear cancel highlight_off disabled_by_default
font-awesome: times times-circle times-circle-o window-close window-close-o
fork-awesome: times times-circle times-circle-o window-close window-close-o
bootstrap: x x-lg x-circle x-circle-fill x-square x-square-fill
[menu]
# why: bootstrap's `list` is the three-line hamburger (no bullets).  Bulleted/numbered lists, four or
# more lines (reorder, justify), text alignment lines and drag handles are excluded.
material: menu dehaze
font-awesome: bars
fork-awesome: bars
bootstrap: list
[more]
# why: material `pending` is an ellipsis in a circle, the shape iOS uses for "more"; material `more`
# (a tag with dots) and dot grids (dialpad, drag_indicator, grip-*) are excluded.
material: more_horiz more_vert pending
font-awesome: ellipsis-h ellipsis-v
fork-awesome: ellipsis-h ellipsis-v
bootstrap: three-dots three-dots-vertical
[home]
# why: other house shapes (cottage, cabin, chalet, gite, houses, house with a badge) are excluded.
material: home home_filled house
font-awesome: home
fork-awesome: home
bootstrap: house house-fill house-door house-door-fill
[search]
# why: a magnifier with plus/minus is zoom, with anything else (person, heart, page, lines) another
# search: excluded.
material: search
font-awesome: search
fork-awesome: search
bootstrap: search
[expand]
material: expand_more keyboard_arrow_down arrow_drop_down arrow_drop_down_circle expand_circle_down
font-awesome: chevron-down caret-down angle-down chevron-circle-down caret-square-o-down
fork-awesome: chevron-down caret-down angle-down chevron-circle-down caret-square-o-down
bootstrap: chevron-down chevron-compact-down caret-down caret-down-fill caret-down-square caret-down-square-fill
[collapse]
# why: carets/chevrons up only; plain up arrows, double chevrons, eject, triangles
# (change_history, bootstrap triangle) and the ^ key (keyboard_control_key) are excluded.
material: expand_less keyboard_arrow_up arrow_drop_up
font-awesome: chevron-up caret-up angle-up chevron-circle-up caret-square-o-up
fork-awesome: chevron-up caret-up angle-up chevron-circle-up caret-square-o-up
bootstrap: chevron-up chevron-compact-up caret-up caret-up-fill caret-up-square caret-up-square-fill
[add]
material: add add_circle add_circle_outline add_box control_point
font-awesome: plus plus-circle plus-square plus-square-o
fork-awesome: plus plus-circle plus-square plus-square-o
bootstrap: plus plus-lg plus-circle plus-circle-fill plus-square plus-square-fill plus-circle-dotted plus-square-dotted
[delete]
# why: delete_forever (trash with an x) still means delete; delete_sweep, restore_from_trash
# (the opposite meaning) and auto_delete are excluded.
material: delete delete_outline delete_forever
font-awesome: trash trash-o
fork-awesome: trash trash-o
bootstrap: trash trash-fill trash2 trash2-fill trash3 trash3-fill
[edit]
# why: edit_note and drive_file_rename_outline are a pencil writing on lines ("pen on paper");
# draw, border_color, colorize/eyedropper and the vector pen nib are excluded.
material: edit create mode mode_edit mode_edit_outline edit_note drive_file_rename_outline
font-awesome: pencil pencil-square-o pencil-square
fork-awesome: pencil pencil-square-o pencil-square
bootstrap: pencil pencil-fill pencil-square pen pen-fill
[share]
# why: Font Awesome share-square(-o) are a box with an arrow out (the iOS-style share); the bare
# curved arrow `share` (= mail-forward) is excluded: it is also reply-all/forward/redo.
# bootstrap box-arrow-up is the iOS share box; its siblings (external link, log in/out) are excluded.
material: share ios_share
font-awesome: share-alt share-alt-square share-square-o share-square
fork-awesome: share-alt share-alt-square share-square-o share-square
bootstrap: share share-fill box-arrow-up
[settings]
# why: settings_applications is a gear in a rounded square.  Several gears (cogs,
# miscellaneous_services), gears with marks, wrenches/tools and gear-like suns (brightness_*)
# are excluded.
material: settings tune settings_applications
font-awesome: cog sliders
fork-awesome: cog sliders
bootstrap: gear gear-fill gear-wide gear-wide-connected sliders sliders2 sliders2-vertical
[refresh]
# why: clockwise circular arrows only (FA `repeat` = rotate-right is the single clockwise arrow, as
# bootstrap arrow-clockwise).  Counterclockwise ones (undo, replay, restart_alt,
# arrow-counterclockwise) and `loop`/`repeat` media loops are excluded.
material: refresh sync autorenew cached
font-awesome: refresh repeat
fork-awesome: refresh repeat
bootstrap: arrow-clockwise arrow-repeat
[download]
# why: save_alt is the arrow-into-tray download glyph; get_app the arrow onto a line.  The same
# shapes named for other meanings (vertical_align_bottom, move_to_inbox, system_update_alt,
# bootstrap save/box-arrow-in-down, file-with-arrow) are excluded.
material: download file_download get_app download_for_offline downloading cloud_download save_alt
font-awesome: download cloud-download
fork-awesome: download cloud-download
bootstrap: download cloud-arrow-down cloud-arrow-down-fill cloud-download cloud-download-fill
[upload]
# why: backup is the cloud with an arrow up.  publish, upgrade, vertical_align_top, outbox,
# unarchive, upload_file are excluded.
material: upload file_upload cloud_upload backup
font-awesome: upload cloud-upload
fork-awesome: upload cloud-upload
bootstrap: upload cloud-arrow-up cloud-arrow-up-fill cloud-upload cloud-upload-fill
[send]
material: send
font-awesome: paper-plane paper-plane-o
fork-awesome: paper-plane paper-plane-o
bootstrap: send send-fill
[filter]
# why: bootstrap filter-left/filter-right (left/right-aligned decreasing lines) are the same shape
# as material `sort`: excluded.  Material `filter` and filter_1..9 are photo filters (stacked
# pictures): excluded.
material: filter_list filter_alt filter_list_alt
font-awesome: filter
fork-awesome: filter
bootstrap: filter funnel funnel-fill filter-circle filter-circle-fill filter-square filter-square-fill
[sort]
# why: material `sort` is the left-aligned "sort lines" glyph.  Sort icons with letters/numbers/bars
# and an arrow (sort-alpha-*, sort-amount-*, sort-numeric-*) are kept: they read as sort.  FA
# sort-asc/sort-desc are a single caret (the halves of `sort`): excluded.
material: sort sort_by_alpha swap_vert import_export swap_vert_circle
font-awesome: sort sort-alpha-asc sort-alpha-desc sort-amount-asc sort-amount-desc sort-numeric-asc sort-numeric-desc
fork-awesome: sort sort-alpha-asc sort-alpha-desc sort-amount-asc sort-amount-desc sort-numeric-asc sort-numeric-desc
bootstrap: sort-alpha-down sort-alpha-down-alt sort-alpha-up sort-alpha-up-alt sort-down sort-down-alt sort-up sort-up-alt
bootstrap: sort-numeric-down sort-numeric-down-alt sort-numeric-up sort-numeric-up-alt arrow-down-up
[done]
# why: a check in a square is a checkbox and a double check is "read": excluded.
material: check done done_outline check_circle check_circle_outline task_alt
font-awesome: check check-circle check-circle-o
fork-awesome: check check-circle check-circle-o
bootstrap: check check-lg check2 check-circle check-circle-fill check2-circle
[bookmark]
# why: turned_in/turned_in_not are bookmark ribbons; two stacked ribbons (bookmarks) still read as
# bookmark.  Ribbons with a check/plus/minus/x/star/heart are excluded.
material: bookmark bookmark_border bookmarks turned_in turned_in_not
font-awesome: bookmark bookmark-o
fork-awesome: bookmark bookmark-o
bootstrap: bookmark bookmark-fill bookmarks bookmarks-fill
[attach]
material: attach_file attachment
font-awesome: paperclip
fork-awesome: paperclip
bootstrap: paperclip
[info]
# why: an exclamation mark in a circle (error, exclamation-circle) stays `other`: it is a common icon
# that must not be called Info, and no glyph of the same shape is trained as info.
material: info info_outline
font-awesome: info info-circle
fork-awesome: info info-circle
bootstrap: info info-lg info-circle info-circle-fill info-square info-square-fill
[help]
# why: a question mark in any frame (diamond, octagon, badge) still reads as help; a question mark in a
# speech bubble (contact_support, live_help), on a device or a map pin is excluded.
material: help help_outline help_center question_mark
font-awesome: question question-circle question-circle-o
fork-awesome: question question-circle question-circle-o
bootstrap: question question-lg question-circle question-circle-fill question-square question-square-fill
bootstrap: question-diamond question-diamond-fill question-octagon question-octagon-fill patch-question patch-question-fill
[notifications]
# why: ringing bells count; a bell with a slash, a plus, a z or an ! is excluded.
material: notifications notifications_none notifications_active circle_notifications
font-awesome: bell bell-o
fork-awesome: bell bell-o bell-ringing bell-ringing-o
bootstrap: bell bell-fill
[favorite]
# why: the playing-card heart (suit-heart), broken/half hearts, hearts with a pulse and several hearts
# are excluded.
material: favorite favorite_border
font-awesome: heart heart-o
fork-awesome: heart heart-o
bootstrap: heart heart-fill
[star]
# why: grade and star_rate are plain stars; `stars` is a star in a circle.  Half stars and
# sparkles (auto_awesome, bootstrap stars) are excluded.
material: star star_border star_outline star_rate star_purple500 star_border_purple500 grade stars
font-awesome: star star-o
fork-awesome: star star-o
bootstrap: star star-fill
[like]
# why: recommend is a thumb up in a circle.
material: thumb_up thumb_up_alt thumb_up_off_alt recommend
font-awesome: thumbs-up thumbs-o-up
fork-awesome: thumbs-up thumbs-o-up
bootstrap: hand-thumbs-up hand-thumbs-up-fill
[dislike]
material: thumb_down thumb_down_alt thumb_down_off_alt
font-awesome: thumbs-down thumbs-o-down
fork-awesome: thumbs-down thumbs-o-down
bootstrap: hand-thumbs-down hand-thumbs-down-fill
[copy]
# why: FA `clone` is the two-overlapping-squares copy glyph.  Other overlapping squares that mean
# layers/boolean operations/photo filters (filter_none, flip_to_*, bootstrap back/front/union...,
# window-restore) are excluded.
material: content_copy file_copy copy_all
font-awesome: files-o clone
fork-awesome: files-o clone
bootstrap: files files-alt
[play]
# why: bootstrap play-btn is a play triangle in a rounded rectangle (a "squared" variant); the
# YouTube logos and material smart_display/slideshow are excluded, as are small carets pointing right.
material: play_arrow play_circle play_circle_filled play_circle_outline
font-awesome: play play-circle play-circle-o
fork-awesome: play play-circle play-circle-o
bootstrap: play play-fill play-circle play-circle-fill play-btn play-btn-fill
[pause]
material: pause pause_circle pause_circle_filled pause_circle_outline
font-awesome: pause pause-circle pause-circle-o
fork-awesome: pause pause-circle pause-circle-o
bootstrap: pause pause-fill pause-circle pause-circle-fill pause-btn pause-btn-fill
[next]
# why: Font Awesome 4 `fast-forward` is two triangles WITH a bar (skip), `forward` is without a bar
# (fast forward: excluded).  first_page/last_page (chevron + bar) are excluded.
material: skip_next
font-awesome: step-forward fast-forward
fork-awesome: step-forward fast-forward
bootstrap: skip-end skip-end-fill skip-end-circle skip-end-circle-fill skip-end-btn skip-end-btn-fill
bootstrap: skip-forward skip-forward-fill skip-forward-circle skip-forward-circle-fill skip-forward-btn skip-forward-btn-fill
[previous]
material: skip_previous
font-awesome: step-backward fast-backward
fork-awesome: step-backward fast-backward
bootstrap: skip-start skip-start-fill skip-start-circle skip-start-circle-fill skip-start-btn skip-start-btn-fill
bootstrap: skip-backward skip-backward-fill skip-backward-circle skip-backward-circle-fill skip-backward-btn skip-backward-btn-fill
[volume]
# why: a speaker with one wave (volume_down, volume_down_alt) is still volume.  A bare speaker with no
# wave (material volume_mute, Font Awesome volume-off, bootstrap volume-off) is ambiguous between
# volume and mute: excluded.  Megaphones are excluded.
material: volume_up volume_down volume_down_alt
font-awesome: volume-up volume-down
fork-awesome: volume-up volume-down
bootstrap: volume-up volume-up-fill volume-down volume-down-fill
[mute]
# why: only a speaker crossed out or with an X.  Font Awesome 4.7 has none (its volume-off is a bare
# speaker); crossed-out microphones, bells and notes are excluded, not mute.
material: volume_off
fork-awesome: volume-mute
bootstrap: volume-mute volume-mute-fill
[microphone]
# why: keyboard_voice is the plain microphone; mic_external_on (a hand-held mic) and microphones with
# a slash are excluded.
material: mic mic_none keyboard_voice
font-awesome: microphone
fork-awesome: microphone
bootstrap: mic mic-fill
[camera]
# why: local_see is the photo camera (map point "sights").  Material `camera` (a lens aperture) and
# cameras with arrows/badges are excluded.
material: photo_camera camera_alt local_see
font-awesome: camera camera-retro
fork-awesome: camera camera-retro
bootstrap: camera camera-fill camera2
[video]
# why: bootstrap camera-reels is a movie camera, a video camera: kept.  Film strips and clapperboards
# (film, movie, theaters, local_movies) mean "movie/media" rather than the video camera: excluded;
# webcams and video cameras with a badge are excluded too.
material: videocam
font-awesome: video-camera
fork-awesome: video-camera
bootstrap: camera-video camera-video-fill camera-reels camera-reels-fill
[photos]
# why: photo_library/collections/images are stacked pictures (gallery).  Bare mountains (landscape,
# terrain, filter_hdr), crop_original and panorama (the picture shape with another meaning),
# picture-in-document and broken/crossed pictures are excluded.
material: image photo insert_photo photo_library collections photo_size_select_actual
font-awesome: picture-o
fork-awesome: picture-o
bootstrap: image image-fill image-alt images
[profile]
# why: a head-and-shoulders bust, plain, circled or squared.  Full standing figures (man, woman,
# accessibility, FA male/female/child), portraits and ID cards, and persons with a badge are
# excluded.
material: person person_outline perm_identity account_circle account_box
font-awesome: user user-o user-circle user-circle-o
fork-awesome: user user-o user-circle user-circle-o
bootstrap: person person-fill person-circle person-square
[people]
# why: supervised_user_circle is two persons in a circle.
material: people people_alt people_outline group groups supervisor_account supervised_user_circle
font-awesome: users
fork-awesome: users
bootstrap: people people-fill
[cart]
# why: shopping baskets count as cart (a shopping container, as the bag).  Briefcases/suitcases,
# handbags, buckets, mine carts and the Google Play bag (shop) are excluded.
material: shopping_cart local_grocery_store shopping_bag local_mall shopping_basket
font-awesome: shopping-cart shopping-bag shopping-basket
fork-awesome: shopping-cart shopping-bag shopping-basket
bootstrap: cart cart-fill cart2 cart3 cart4 bag bag-fill basket basket-fill basket2 basket2-fill basket3 basket3-fill
[location]
# why: near_me and location-arrow are the location arrow.  The "my location" crosshair (my_location,
# gps_*, crosshairs), material `navigation` (an arrowhead pointing up, close to collapse), pushpins
# (push_pin, thumb-tack, bootstrap pin) and the mouse cursor are excluded.
material: location_on place room pin_drop fmd_good location_pin near_me
font-awesome: map-marker map-pin location-arrow
fork-awesome: map-marker map-pin location-arrow
bootstrap: geo geo-fill geo-alt geo-alt-fill
[calendar]
# why: calendar pages with any date, day, week, range or event mark inside count; pages with a
# check/plus/minus/x/heart badge are excluded.  calendar_view_month/week (plain grids) stay other.
material: calendar_today calendar_month event date_range today insert_invitation event_note
font-awesome: calendar calendar-o
fork-awesome: calendar calendar-o
bootstrap: calendar calendar-fill calendar-date calendar-date-fill calendar-day calendar-day-fill calendar-event calendar-event-fill
bootstrap: calendar-month calendar-month-fill calendar-range calendar-range-fill calendar-week calendar-week-fill
bootstrap: calendar2 calendar2-fill calendar2-date calendar2-date-fill calendar2-day calendar2-day-fill calendar2-event calendar2-event-fill
bootstrap: calendar2-month calendar2-month-fill calendar2-range calendar2-range-fill calendar2-week calendar2-week-fill
bootstrap: calendar3 calendar3-fill calendar3-event calendar3-event-fill calendar3-range calendar3-range-fill calendar3-week calendar3-week-fill
bootstrap: calendar4 calendar4-event calendar4-range calendar4-week
[clock]
# why: clock faces, alarm clocks and history clocks (history, restore, update: a clock face inside a
# circular arrow).  Stopwatches/timers (timer, av_timer, shutter_speed, bootstrap stopwatch) are
# excluded: a screen reader saying "Clock" for a timer is half right, and they are not clock faces.
# Wrist watches, hourglasses with a clock, clocks with badges are excluded; hourglasses stay other.
material: schedule access_time query_builder watch_later access_time_filled history restore update alarm access_alarm access_alarms
font-awesome: clock-o history
fork-awesome: clock-o history
bootstrap: clock clock-fill clock-history alarm alarm-fill
[mail]
# why: open envelopes (drafts, envelope-open) and Fork Awesome's stacked envelopes (email-bulk) are
# still mail.  Envelopes with a badge and the @ sign are excluded.
material: mail email mail_outline markunread local_post_office drafts
font-awesome: envelope envelope-o envelope-square envelope-open envelope-open-o
fork-awesome: envelope envelope-o envelope-square envelope-open envelope-open-o email-bulk email-bulk-o
bootstrap: envelope envelope-fill envelope-open envelope-open-fill envelope-paper envelope-paper-fill
[chat]
# why: one or two speech bubbles, empty or with dots, text lines or quote marks.  Bubbles with a
# heart/!/?/+/star, and chat-app logos (WhatsApp, Messenger, Telegram, WeChat, LINE, Signal,
# Mastodon, Twitch) are excluded.
material: chat chat_bubble chat_bubble_outline comment mode_comment forum question_answer sms textsms message insert_comment speaker_notes
font-awesome: comment comment-o comments comments-o commenting commenting-o
fork-awesome: comment comment-o comments comments-o commenting commenting-o
bootstrap: chat chat-fill chat-dots chat-dots-fill chat-text chat-text-fill chat-quote chat-quote-fill
bootstrap: chat-left chat-left-fill chat-left-dots chat-left-dots-fill chat-left-text chat-left-text-fill chat-left-quote chat-left-quote-fill
bootstrap: chat-right chat-right-fill chat-right-dots chat-right-dots-fill chat-right-text chat-right-text-fill chat-right-quote chat-right-quote-fill
bootstrap: chat-square chat-square-fill chat-square-dots chat-square-dots-fill chat-square-text chat-square-text-fill chat-square-quote chat-square-quote-fill
[phone]
# why: the telephone handset only.  Smartphones (phone_android, phone_iphone, smartphone, FA mobile,
# bootstrap phone*, which is a smartphone) and call_end (the hang-up handset) are excluded.
material: phone call local_phone phone_enabled phone_in_talk
font-awesome: phone phone-square
fork-awesome: phone phone-square
bootstrap: telephone telephone-fill
[lock]
# why: material https is the same padlock.  Padlocks with a badge, on a device or a document are
# excluded; keys stay other.
material: lock lock_outline lock_open https
font-awesome: lock unlock unlock-alt
fork-awesome: lock unlock unlock-alt
bootstrap: lock lock-fill unlock unlock-fill
[cloud]
# why: wb_cloudy and bootstrap cloudy are the same cloud named for the weather: excluded (as are all
# weather clouds, clouds with a check/plus/minus/slash and cloud-shaped logos).
material: cloud cloud_queue cloud_circle
font-awesome: cloud
fork-awesome: cloud
bootstrap: cloud cloud-fill
[exclude]
# Never trained on (neither a type nor other).  Grouped by what they resemble; each family's
# lines are contiguous: material, then font-awesome, then fork-awesome, then bootstrap.
# ---- material ----
# Arrows, chevrons, carets and triangles pointing like back/forward/expand/collapse but meaning a
# direction, alignment, a key, paging, a turn or a swipe; plain up/down arrows (upload? collapse?)
material: arrow_left arrow_right arrow_upward arrow_downward arrow_circle_up arrow_circle_down north south east west trending_flat
material: straight height keyboard_backspace keyboard_capslock keyboard_control_key keyboard_double_arrow_left
material: keyboard_double_arrow_right keyboard_double_arrow_up keyboard_double_arrow_down keyboard_return keyboard_tab
material: double_arrow first_page last_page start subdirectory_arrow_left subdirectory_arrow_right turn_left turn_right
material: switch_left switch_right swipe_left_alt swipe_right_alt swipe_up_alt swipe_down_alt move_up move_down unfold_more
material: unfold_less expand change_history details eject navigation assistant_navigation label_important label_important_outline
material: text_rotate_vertical text_rotation_down text_rotate_up
# An arrow into or out of a line, tray, box, device or document: the download/upload/share shapes
# named for align, archive, install, save, publish, open externally, log in/out
material: vertical_align_bottom vertical_align_top vertical_align_center publish upgrade outbox unarchive archive move_to_inbox
material: system_update_alt system_update system_security_update system_security_update_good security_update security_update_good
material: sim_card_download install_desktop install_mobile browser_updated play_for_work present_to_all open_in_browser
material: drive_folder_upload upload_file download_done file_download_done file_download_off launch open_in_new open_in_new_off
material: input output login logout exit_to_app mobile_screen_share screen_share offline_share share_location emergency_share
material: forward_to_inbox assignment_returned assignment_return send_to_mobile
# Curved and circular arrows (reply, undo/redo, replay, rotate, repeat, loop, swap, sync with a badge):
# close to back, share, refresh or sort
material: reply reply_all shortcut redo undo replay replay_5 replay_10 replay_30 replay_circle_filled forward_5 forward_10
material: forward_30 loop repeat repeat_on repeat_one repeat_one_on restart_alt rotate_left rotate_right rotate_90_degrees_ccw
material: rotate_90_degrees_cw 360 3d_rotation change_circle sync_alt sync_disabled sync_lock sync_problem cloud_sync auto_mode
material: currency_exchange wifi_protected_setup published_with_changes screen_rotation_alt settings_backup_restore model_training
material: flip_camera_android flip_camera_ios cameraswitch youtube_searched_for lock_reset restore_page event_repeat swap_horiz
material: swap_horizontal_circle swap_calls compare_arrows low_priority
# Lines and lists: close to the hamburger (menu) or to filter/sort lines (bulleted and numbered lists,
# text alignment and indentation, four or more equal lines, drag handles, lines with a badge)
material: reorder menu_open clear_all notes subject short_text segment toc view_headline view_list list format_list_bulleted
material: format_list_numbered format_list_numbered_rtl format_align_center format_align_justify format_align_left
material: format_align_right format_indent_decrease format_indent_increase format_line_spacing density_small density_medium
material: density_large drag_handle line_weight line_style table_rows storage horizontal_split calendar_view_day read_more
material: checklist checklist_rtl grading rule queue_music playlist_add playlist_add_check playlist_add_check_circle
material: playlist_add_circle playlist_play playlist_remove tornado
# Groups of dots: close to more (three dots in a row) or share (three connected dots); dot-like logos
material: more dialpad drag_indicator linear_scale polyline hub group_work scatter_plot spoke workspaces workspaces_filled
material: workspaces_outline
# Plus, check or X as the main mark of another shape or with a second symbol: close to add, done, close
# (checkboxes, double checks, verified badges, medical crosses, +1, X in an octagon, backspace...)
material: add_a_photo add_alarm add_alert add_comment add_home add_home_work add_location add_location_alt add_photo_alternate
material: add_shopping_cart add_task add_to_photos add_to_queue add_call add_ic_call library_add library_add_check library_books
material: library_music queue queue_play_next control_point_duplicate loupe local_hospital local_pharmacy note_add plus_one
material: exposure_plus_1 exposure_plus_2 data_saver_on maps_ugc create_new_folder health_and_safety done_all check_box verified
material: verified_user gpp_good gpp_bad beenhere offline_pin how_to_reg fact_check spellcheck remove_done domain_verification
material: price_check task event_available assignment_turned_in where_to_vote mark_email_read mark_chat_read cloud_done
material: bookmark_added unpublished backspace dangerous cancel_presentation cancel_schedule_send
# Magnifiers that are not plain search: zoom, search with a person/heart/page/lines, magnifier logos
material: search_off saved_search manage_search image_search find_in_page find_replace zoom_in zoom_out pageview travel_explore
material: person_search content_paste_search screen_search_desktop troubleshoot query_stats policy plagiarism wifi_find
# Pencils, gears, sliders and tools with another meaning: close to edit or settings (gears with
# marks, several gears, wrenches and toolboxes, gear-like suns, eyedroppers, pen nibs, toggles)
material: delete_sweep restore_from_trash auto_delete folder_delete border_color draw edit_off edit_calendar edit_location
material: edit_location_alt edit_notifications edit_road app_registration design_services history_edu colorize rate_review
material: note_alt save_as settings_suggest manage_accounts admin_panel_settings miscellaneous_services engineering
material: display_settings video_settings settings_accessibility settings_input_component settings_input_composite build
material: build_circle construction handyman brightness_4 brightness_5 brightness_6 brightness_7 brightness_auto brightness_high
material: brightness_low brightness_medium
# Bookmarks, bells, hearts, stars and thumbs with a badge or another meaning: half stars, sparkles,
# broken hearts, playing-card hearts, hearts with a pulse, a crossed-out bell, thumbs up and down
material: bookmark_add bookmark_remove collections_bookmark class notification_add notification_important notifications_off
material: notifications_paused doorbell heart_broken volunteer_activism monitor_heart loyalty star_half hotel_class auto_awesome
material: auto_awesome_motion thumbs_up_down
# Overlapping sheets and squares with another meaning: close to copy (layers, boolean operations, photo
# filters, stacked items, window restore, clipboards)
material: filter_none filter filter_1 filter_2 filter_3 filter_4 filter_5 filter_6 filter_7 filter_8 filter_9 filter_9_plus
material: difference dynamic_feed folder_copy flip_to_back flip_to_front burst_mode
# Media controls that are not ours: fast forward / rewind without a bar, play or pause inside another
# shape or crossed out, YouTube/Google Play/PeerTube-like triangles, eject
material: play_disabled not_started slideshow smart_display ondemand_video play_lesson subscriptions motion_photos_auto
material: motion_photos_off motion_photos_on motion_photos_pause motion_photos_paused slow_motion_video pause_presentation
material: fast_forward fast_rewind next_plan
# Speakers, microphones and megaphones that are not volume/mute/microphone: a bare speaker (volume or
# mute?), crossed-out microphones (mute of the microphone, not of the sound), speaking heads, megaphones
material: volume_mute campaign record_voice_over spatial_audio spatial_audio_off spatial_tracking ring_volume voice_over_off
material: mic_off mic_external_on mic_external_off settings_voice voice_chat perm_camera_mic headset_mic interpreter_mode
material: transcribe
# Cameras, video cameras and pictures with another meaning: lens aperture, film strips and clapperboards,
# webcams, cameras with arrows, bare mountains, picture-shaped frames, pictures in documents
material: camera camera_enhance camera_front camera_rear camera_indoor camera_outdoor camera_roll linked_camera no_photography
material: party_mode monochrome_photos photo_camera_back photo_camera_front switch_camera video_call missed_video_call
material: videocam_off switch_video video_camera_back video_camera_front video_library video_file emergency_recording
material: nest_cam_wired_stand duo movie movie_creation movie_filter local_movies theaters photo_album photo_filter
material: photo_size_select_large photo_size_select_small broken_image hide_image image_not_supported crop_original landscape
material: terrain filter_hdr panorama vrpano now_wallpaper perm_media picture_as_pdf
# Persons that are not one plain bust or a plain group: persons with a badge, standing figures, faces,
# ID cards, contact cards, persons in documents or on pins, person-like logos
material: face face_retouching_natural face_retouching_off attribution assignment_ind contact_page contact_mail contact_phone
material: contacts badge portrait switch_account no_accounts person_add person_add_alt person_add_alt_1 person_add_disabled
material: person_off person_remove person_remove_alt_1 person_pin person_pin_circle lock_person co_present support_agent
material: recent_actors perm_contact_calendar accessibility accessibility_new boy girl man woman elderly elderly_woman
material: pregnant_woman emoji_people group_add group_remove group_off reduce_capacity social_distance 6_ft_apart wc
material: family_restroom nature_people sensor_occupied
# Carts and bags with a badge, and bag-like shapes with another meaning: briefcases, suitcases,
# handbags, buckets, mine carts, the Google Play bag (shop), cart logos (OpenCart, Shopify)
material: remove_shopping_cart shopping_cart_checkout production_quantity_limits shop shop_two shopify work work_outline work_off
material: work_history business_center cases card_travel medical_services next_week
# Location marks with another meaning: the my-location crosshair, pins with a badge, pushpins
material: my_location gps_fixed gps_not_fixed gps_off location_searching location_disabled location_off wrong_location
material: not_listed_location fmd_bad mode_of_travel near_me_disabled push_pin
# Calendars and clocks with a badge, timers and stopwatches (decided: not clock), wrist watches
material: event_busy free_cancellation timer timer_off av_timer shutter_speed alarm_add alarm_off alarm_on snooze more_time
material: pending_actions lock_clock manage_history history_toggle_off punch_clock browse_gallery schedule_send update_disabled
material: watch watch_off
# Envelopes and speech bubbles with a badge or another meaning, the @ sign, paper planes with a badge,
# and messaging-app logos (bubbles and planes)
material: mark_as_unread mark_email_unread attach_email outgoing_mail unsubscribe mail_lock alternate_email announcement feedback
material: assistant contact_support live_help mark_chat_unread mark_unread_chat_alt quickreply reviews sms_failed
material: speaker_notes_off comments_disabled comment_bank 3p mms try lyrics wechat whatsapp telegram send_and_archive
material: send_time_extension file_present
# Phones and padlocks with another meaning: smartphones (not the handset), the hang-up handset,
# handsets with a badge, padlocks with a badge or on a device/document
material: call_end phone_android phone_iphone smartphone phone_bluetooth_speaker phone_callback phone_disabled phone_forwarded
material: phone_locked phone_missed phone_paused perm_phone_msg dialer_sip wifi_calling wifi_calling_3 settings_phone
material: enhanced_encryption no_encryption no_encryption_gmailerrorred vpn_lock screen_lock_landscape screen_lock_portrait
material: screen_lock_rotation wifi_lock wifi_password
# Clouds with another meaning: weather (cloudy, rain, snow...), clouds with a check/plus/minus/slash,
# cloud-shaped logos
material: cloud_off cloudy_snowing thunderstorm foggy sunny_snowing filter_drama wb_cloudy settings_system_daydream
# Houses that are not home, and other look-alikes: lodging and building houses, houses with a badge,
# a question mark on a device or in a bubble, a martini glass (a funnel), a pocket-shaped chevron logo
material: cottage other_houses house_siding bungalow cabin chalet gite holiday_village home_work maps_home_work roofing
material: perm_device_info privacy_tip device_unknown battery_unknown quiz psychology_alt filter_list_off filter_alt_off local_bar
# ---- font-awesome ----
# Arrows, chevrons, carets and triangles pointing like back/forward/expand/collapse but meaning a
# direction, alignment, a key, paging, a turn or a swipe; plain up/down arrows (upload? collapse?)
font-awesome: angle-double-left angle-double-right angle-double-up angle-double-down arrow-up arrow-down arrow-circle-up
font-awesome: arrow-circle-down arrow-circle-o-up arrow-circle-o-down long-arrow-up long-arrow-down arrows-h arrows-v exchange
font-awesome: caret-left caret-right caret-square-o-left caret-square-o-right sort-asc sort-desc eject level-up level-down hand-o-left
font-awesome: hand-o-right hand-o-up hand-o-down mouse-pointer
# An arrow into or out of a line, tray, box, device or document: the download/upload/share shapes
# named for align, archive, install, save, publish, open externally, log in/out
font-awesome: sign-in sign-out external-link external-link-square
# Curved and circular arrows (reply, undo/redo, replay, rotate, repeat, loop, swap, sync with a badge):
# close to back, share, refresh or sort
font-awesome: share reply reply-all undo retweet
# Lines and lists: close to the hamburger (menu) or to filter/sort lines (bulleted and numbered lists,
# text alignment and indentation, four or more equal lines, drag handles, lines with a badge)
font-awesome: align-justify align-left align-center align-right indent outdent list list-ul list-ol th-list tasks
# Plus, check or X as the main mark of another shape or with a second symbol: close to add, done, close
# (checkboxes, double checks, verified badges, medical crosses, +1, X in an octagon, backspace...)
font-awesome: check-square check-square-o medkit
# Magnifiers that are not plain search: zoom, search with a person/heart/page/lines, magnifier logos
font-awesome: search-plus search-minus
# Pencils, gears, sliders and tools with another meaning: close to edit or settings (gears with
# marks, several gears, wrenches and toolboxes, gear-like suns, eyedroppers, pen nibs, toggles)
font-awesome: cogs wrench sun-o eyedropper
# Bookmarks, bells, hearts, stars and thumbs with a badge or another meaning: half stars, sparkles,
# broken hearts, playing-card hearts, hearts with a pulse, a crossed-out bell, thumbs up and down
font-awesome: bell-slash bell-slash-o star-half star-half-o heartbeat gratipay
# Overlapping sheets and squares with another meaning: close to copy (layers, boolean operations, photo
# filters, stacked items, window restore, clipboards)
font-awesome: clipboard window-restore
# Media controls that are not ours: fast forward / rewind without a bar, play or pause inside another
# shape or crossed out, YouTube/Google Play/PeerTube-like triangles, eject
font-awesome: backward forward youtube-play
# Speakers, microphones and megaphones that are not volume/mute/microphone: a bare speaker (volume or
# mute?), crossed-out microphones (mute of the microphone, not of the sound), speaking heads, megaphones
font-awesome: volume-off bullhorn volume-control-phone microphone-slash
# Cameras, video cameras and pictures with another meaning: lens aperture, film strips and clapperboards,
# webcams, cameras with arrows, bare mountains, picture-shaped frames, pictures in documents
font-awesome: film file-image-o file-video-o
# Persons that are not one plain bust or a plain group: persons with a badge, standing figures, faces,
# ID cards, contact cards, persons in documents or on pins, person-like logos
font-awesome: user-md user-plus user-times user-secret male female child street-view odnoklassniki odnoklassniki-square id-badge
font-awesome: id-card id-card-o address-book address-book-o address-card address-card-o slideshare universal-access
# Carts and bags with a badge, and bag-like shapes with another meaning: briefcases, suitcases,
# handbags, buckets, mine carts, the Google Play bag (shop), cart logos (OpenCart, Shopify)
font-awesome: cart-plus cart-arrow-down briefcase suitcase opencart
# Location marks with another meaning: the my-location crosshair, pins with a badge, pushpins
font-awesome: crosshairs thumb-tack
# Calendars and clocks with a badge, timers and stopwatches (decided: not clock), wrist watches
font-awesome: calendar-check-o calendar-minus-o calendar-plus-o calendar-times-o
# Envelopes and speech bubbles with a badge or another meaning, the @ sign, paper planes with a badge,
# and messaging-app logos (bubbles and planes)
font-awesome: at telegram weixin whatsapp twitch
# Phones and padlocks with another meaning: smartphones (not the handset), the hang-up handset,
# handsets with a badge, padlocks with a badge or on a device/document
font-awesome: mobile
# Clouds with another meaning: weather (cloudy, rain, snow...), clouds with a check/plus/minus/slash,
# cloud-shaped logos
font-awesome: mixcloud soundcloud sellsy jsfiddle
# Houses that are not home, and other look-alikes: lodging and building houses, houses with a badge,
# a question mark on a device or in a bubble, a martini glass (a funnel), a pocket-shaped chevron logo
font-awesome: glass get-pocket
# ---- fork-awesome ----
# Arrows, chevrons, carets and triangles pointing like back/forward/expand/collapse but meaning a
# direction, alignment, a key, paging, a turn or a swipe; plain up/down arrows (upload? collapse?)
fork-awesome: angle-double-left angle-double-right angle-double-up angle-double-down arrow-up arrow-down arrow-circle-up
fork-awesome: arrow-circle-down arrow-circle-o-up arrow-circle-o-down long-arrow-up long-arrow-down arrows-h arrows-v exchange
fork-awesome: caret-left caret-right caret-square-o-left caret-square-o-right sort-asc sort-desc eject level-up level-down hand-o-left
fork-awesome: hand-o-right hand-o-up hand-o-down mouse-pointer
# An arrow into or out of a line, tray, box, device or document: the download/upload/share shapes
# named for align, archive, install, save, publish, open externally, log in/out
fork-awesome: sign-in sign-out external-link external-link-square
# Curved and circular arrows (reply, undo/redo, replay, rotate, repeat, loop, swap, sync with a badge):
# close to back, share, refresh or sort
fork-awesome: share reply reply-all undo retweet
# Lines and lists: close to the hamburger (menu) or to filter/sort lines (bulleted and numbered lists,
# text alignment and indentation, four or more equal lines, drag handles, lines with a badge)
fork-awesome: align-justify align-left align-center align-right indent outdent list list-ul list-ol th-list tasks
# Groups of dots: close to more (three dots in a row) or share (three connected dots); dot-like logos
fork-awesome: hubzilla nextcloud nextcloud-square
# Plus, check or X as the main mark of another shape or with a second symbol: close to add, done, close
# (checkboxes, double checks, verified badges, medical crosses, +1, X in an octagon, backspace...)
fork-awesome: check-square check-square-o medkit spell-check
# Magnifiers that are not plain search: zoom, search with a person/heart/page/lines, magnifier logos
fork-awesome: search-plus search-minus
# Pencils, gears, sliders and tools with another meaning: close to edit or settings (gears with
# marks, several gears, wrenches and toolboxes, gear-like suns, eyedroppers, pen nibs, toggles)
fork-awesome: cogs wrench sun-o eyedropper sun
# Bookmarks, bells, hearts, stars and thumbs with a badge or another meaning: half stars, sparkles,
# broken hearts, playing-card hearts, hearts with a pulse, a crossed-out bell, thumbs up and down
fork-awesome: bell-slash bell-slash-o star-half star-half-o heartbeat gratipay
# Overlapping sheets and squares with another meaning: close to copy (layers, boolean operations, photo
# filters, stacked items, window restore, clipboards)
fork-awesome: clipboard window-restore cc-share
# Media controls that are not ours: fast forward / rewind without a bar, play or pause inside another
# shape or crossed out, YouTube/Google Play/PeerTube-like triangles, eject
fork-awesome: backward forward youtube-play peertube emby google-play
# Speakers, microphones and megaphones that are not volume/mute/microphone: a bare speaker (volume or
# mute?), crossed-out microphones (mute of the microphone, not of the sound), speaking heads, megaphones
fork-awesome: volume-off bullhorn volume-control-phone microphone-slash
# Cameras, video cameras and pictures with another meaning: lens aperture, film strips and clapperboards,
# webcams, cameras with arrows, bare mountains, picture-shaped frames, pictures in documents
fork-awesome: film file-image-o file-video-o
# Persons that are not one plain bust or a plain group: persons with a badge, standing figures, faces,
# ID cards, contact cards, persons in documents or on pins, person-like logos
fork-awesome: user-md user-plus user-times user-secret male female child street-view odnoklassniki odnoklassniki-square id-badge
fork-awesome: id-card id-card-o address-book address-book-o address-card address-card-o slideshare universal-access cc-by
# Carts and bags with a badge, and bag-like shapes with another meaning: briefcases, suitcases,
# handbags, buckets, mine carts, the Google Play bag (shop), cart logos (OpenCart, Shopify)
fork-awesome: cart-plus cart-arrow-down briefcase suitcase opencart
# Location marks with another meaning: the my-location crosshair, pins with a badge, pushpins
fork-awesome: crosshairs thumb-tack
# Calendars and clocks with a badge, timers and stopwatches (decided: not clock), wrist watches
fork-awesome: calendar-check-o calendar-minus-o calendar-plus-o calendar-times-o
# Envelopes and speech bubbles with a badge or another meaning, the @ sign, paper planes with a badge,
# and messaging-app logos (bubbles and planes)
fork-awesome: at telegram weixin whatsapp twitch signalapp facebook-messenger mastodon mastodon-alt mastodon-square
# Phones and padlocks with another meaning: smartphones (not the handset), the hang-up handset,
# handsets with a badge, padlocks with a badge or on a device/document
fork-awesome: mobile
# Clouds with another meaning: weather (cloudy, rain, snow...), clouds with a check/plus/minus/slash,
# cloud-shaped logos
fork-awesome: mixcloud soundcloud sellsy jsfiddle
# Houses that are not home, and other look-alikes: lodging and building houses, houses with a badge,
# a question mark on a device or in a bubble, a martini glass (a funnel), a pocket-shaped chevron logo
fork-awesome: glass get-pocket home-assistant
# ---- bootstrap ----
# Arrows, chevrons, carets and triangles pointing like back/forward/expand/collapse but meaning a
# direction, alignment, a key, paging, a turn or a swipe; plain up/down arrows (upload? collapse?)
bootstrap: arrow-up arrow-up-short arrow-up-circle arrow-up-circle-fill arrow-up-square arrow-up-square-fill arrow-down
bootstrap: arrow-down-short arrow-down-circle arrow-down-circle-fill arrow-down-square arrow-down-square-fill arrow-bar-up
bootstrap: arrow-bar-down arrow-bar-left arrow-bar-right arrow-90deg-up arrow-90deg-down arrow-90deg-left arrow-90deg-right
bootstrap: arrow-return-left arrow-return-right arrow-left-right arrows-collapse arrows-expand chevron-bar-up chevron-bar-down
bootstrap: chevron-bar-left chevron-bar-right chevron-bar-contract chevron-bar-expand chevron-contract chevron-expand
bootstrap: chevron-double-up chevron-double-down chevron-double-left chevron-double-right caret-left caret-left-fill
bootstrap: caret-left-square caret-left-square-fill caret-right caret-right-fill caret-right-square caret-right-square-fill
bootstrap: triangle triangle-fill triangle-half eject eject-fill capslock capslock-fill shift shift-fill hand-index hand-index-fill
bootstrap: hand-index-thumb hand-index-thumb-fill cursor cursor-fill
# An arrow into or out of a line, tray, box, device or document: the download/upload/share shapes
# named for align, archive, install, save, publish, open externally, log in/out
bootstrap: box-arrow-down box-arrow-down-left box-arrow-down-right box-arrow-in-down box-arrow-in-down-left box-arrow-in-down-right
bootstrap: box-arrow-in-up box-arrow-in-up-left box-arrow-in-up-right box-arrow-in-left box-arrow-in-right box-arrow-left
bootstrap: box-arrow-right box-arrow-up-left box-arrow-up-right save save-fill save2 save2-fill file-arrow-down
bootstrap: file-arrow-down-fill file-arrow-up file-arrow-up-fill file-earmark-arrow-down file-earmark-arrow-down-fill
bootstrap: file-earmark-arrow-up file-earmark-arrow-up-fill journal-arrow-down journal-arrow-up
# Curved and circular arrows (reply, undo/redo, replay, rotate, repeat, loop, swap, sync with a badge):
# close to back, share, refresh or sort
bootstrap: arrow-counterclockwise repeat repeat-1 reply reply-fill reply-all reply-all-fill escape bootstrap-reboot
# Lines and lists: close to the hamburger (menu) or to filter/sort lines (bulleted and numbered lists,
# text alignment and indentation, four or more equal lines, drag handles, lines with a badge)
bootstrap: filter-left filter-right list-ul list-ol list-task list-check list-nested list-stars list-columns list-columns-reverse
bootstrap: justify justify-left justify-right text-center text-left text-right text-paragraph text-indent-left text-indent-right
bootstrap: text-wrap indent unindent body-text blockquote-left blockquote-right border-width ui-checks ui-radios music-note-list
# Groups of dots: close to more (three dots in a row) or share (three connected dots); dot-like logos
bootstrap: grip-horizontal grip-vertical medium
# Plus, check or X as the main mark of another shape or with a second symbol: close to add, done, close
# (checkboxes, double checks, verified badges, medical crosses, +1, X in an octagon, backspace...)
bootstrap: check-all check2-all check-square check-square-fill check2-square patch-check patch-check-fill shield-check
bootstrap: shield-fill-check clipboard-check clipboard-check-fill clipboard2-check clipboard2-check-fill file-check file-check-fill
bootstrap: file-earmark-check file-earmark-check-fill journal-check spellcheck clipboard-plus clipboard-plus-fill clipboard2-plus
bootstrap: clipboard2-plus-fill clipboard-x clipboard-x-fill clipboard2-x clipboard2-x-fill file-plus file-plus-fill
bootstrap: file-earmark-plus file-earmark-plus-fill file-x file-x-fill file-earmark-x file-earmark-x-fill file-excel
bootstrap: file-excel-fill file-earmark-excel file-earmark-excel-fill journal-plus journal-x node-plus node-plus-fill patch-plus
bootstrap: patch-plus-fill plus-slash-minus prescription2 sign-intersection sign-intersection-fill backspace backspace-fill
bootstrap: backspace-reverse backspace-reverse-fill x-diamond x-diamond-fill x-octagon x-octagon-fill folder-check folder-plus
bootstrap: folder-x shield-plus shield-fill-plus shield-x shield-fill-x
# Magnifiers that are not plain search: zoom, search with a person/heart/page/lines, magnifier logos
bootstrap: search-heart search-heart-fill zoom-in zoom-out
# Pencils, gears, sliders and tools with another meaning: close to edit or settings (gears with
# marks, several gears, wrenches and toolboxes, gear-like suns, eyedroppers, pen nibs, toggles)
bootstrap: tools wrench wrench-adjustable wrench-adjustable-circle wrench-adjustable-circle-fill nut nut-fill toggles toggles2
bootstrap: vector-pen eyedropper
# Bookmarks, bells, hearts, stars and thumbs with a badge or another meaning: half stars, sparkles,
# broken hearts, playing-card hearts, hearts with a pulse, a crossed-out bell, thumbs up and down
bootstrap: bookmark-check bookmark-check-fill bookmark-dash bookmark-dash-fill bookmark-heart bookmark-heart-fill bookmark-plus
bootstrap: bookmark-plus-fill bookmark-star bookmark-star-fill bookmark-x bookmark-x-fill journal-bookmark journal-bookmark-fill
bootstrap: bell-slash bell-slash-fill heart-half heart-pulse heart-pulse-fill heartbreak heartbreak-fill hearts heart-arrow
bootstrap: arrow-through-heart arrow-through-heart-fill suit-heart suit-heart-fill balloon-heart balloon-heart-fill valentine
bootstrap: valentine2 star-half stars
# Overlapping sheets and squares with another meaning: close to copy (layers, boolean operations, photo
# filters, stacked items, window restore, clipboards)
bootstrap: back front exclude intersect subtract union stickies stickies-fill window-stack
# Media controls that are not ours: fast forward / rewind without a bar, play or pause inside another
# shape or crossed out, YouTube/Google Play/PeerTube-like triangles, eject
bootstrap: fast-forward fast-forward-fill fast-forward-btn fast-forward-btn-fill fast-forward-circle fast-forward-circle-fill
bootstrap: rewind rewind-fill rewind-btn rewind-btn-fill rewind-circle rewind-circle-fill google-play youtube file-play
bootstrap: file-play-fill file-earmark-play file-earmark-play-fill collection-play collection-play-fill
# Speakers, microphones and megaphones that are not volume/mute/microphone: a bare speaker (volume or
# mute?), crossed-out microphones (mute of the microphone, not of the sound), speaking heads, megaphones
bootstrap: volume-off volume-off-fill megaphone megaphone-fill mic-mute mic-mute-fill
# Cameras, video cameras and pictures with another meaning: lens aperture, film strips and clapperboards,
# webcams, cameras with arrows, bare mountains, picture-shaped frames, pictures in documents
bootstrap: camera-video-off camera-video-off-fill webcam webcam-fill film card-image file-image file-image-fill file-earmark-image
bootstrap: file-earmark-image-fill
# Persons that are not one plain bust or a plain group: persons with a badge, standing figures, faces,
# ID cards, contact cards, persons in documents or on pins, person-like logos
bootstrap: person-add person-badge person-badge-fill person-bounding-box person-check person-check-fill person-dash
bootstrap: person-dash-fill person-down person-exclamation person-fill-add person-fill-check person-fill-dash person-fill-down
bootstrap: person-fill-exclamation person-fill-gear person-fill-lock person-fill-slash person-fill-up person-fill-x person-gear
bootstrap: person-heart person-hearts person-lines-fill person-lock person-plus person-plus-fill person-rolodex person-slash
bootstrap: person-up person-vcard person-vcard-fill person-video person-video2 person-video3 person-workspace person-x
bootstrap: person-x-fill file-person file-person-fill file-earmark-person file-earmark-person-fill universal-access
bootstrap: universal-access-circle
# Carts and bags with a badge, and bag-like shapes with another meaning: briefcases, suitcases,
# handbags, buckets, mine carts, the Google Play bag (shop), cart logos (OpenCart, Shopify)
bootstrap: bag-check bag-check-fill bag-dash bag-dash-fill bag-heart bag-heart-fill bag-plus bag-plus-fill bag-x bag-x-fill
bootstrap: cart-check cart-check-fill cart-dash cart-dash-fill cart-plus cart-plus-fill cart-x cart-x-fill handbag handbag-fill
bootstrap: minecart minecart-loaded briefcase briefcase-fill bucket bucket-fill
# Location marks with another meaning: the my-location crosshair, pins with a badge, pushpins
bootstrap: pin pin-fill pin-angle pin-angle-fill pin-map pin-map-fill
# Calendars and clocks with a badge, timers and stopwatches (decided: not clock), wrist watches
bootstrap: calendar-check calendar-check-fill calendar-heart calendar-heart-fill calendar-minus calendar-minus-fill calendar-plus
bootstrap: calendar-plus-fill calendar-x calendar-x-fill calendar2-check calendar2-check-fill calendar2-heart calendar2-heart-fill
bootstrap: calendar2-minus calendar2-minus-fill calendar2-plus calendar2-plus-fill calendar2-x calendar2-x-fill stopwatch
bootstrap: stopwatch-fill watch
# Envelopes and speech bubbles with a badge or another meaning, the @ sign, paper planes with a badge,
# and messaging-app logos (bubbles and planes)
bootstrap: envelope-at envelope-at-fill envelope-check envelope-check-fill envelope-dash envelope-dash-fill envelope-exclamation
bootstrap: envelope-exclamation-fill envelope-heart envelope-heart-fill envelope-open-heart envelope-open-heart-fill
bootstrap: envelope-paper-heart envelope-paper-heart-fill envelope-plus envelope-plus-fill envelope-slash envelope-slash-fill
bootstrap: envelope-x envelope-x-fill at chat-heart chat-heart-fill chat-left-heart chat-left-heart-fill chat-right-heart
bootstrap: chat-right-heart-fill chat-square-heart chat-square-heart-fill messenger mastodon line signal whatsapp wechat twitch
bootstrap: send-check send-check-fill send-dash send-dash-fill send-exclamation send-exclamation-fill send-plus send-plus-fill
bootstrap: send-slash send-slash-fill send-x send-x-fill telegram
# Phones and padlocks with another meaning: smartphones (not the handset), the hang-up handset,
# handsets with a badge, padlocks with a badge or on a device/document
bootstrap: telephone-forward telephone-forward-fill telephone-inbound telephone-inbound-fill telephone-minus telephone-minus-fill
bootstrap: telephone-outbound telephone-outbound-fill telephone-plus telephone-plus-fill telephone-x telephone-x-fill phone
bootstrap: phone-fill phone-flip phone-landscape phone-landscape-fill phone-vibrate phone-vibrate-fill file-lock file-lock-fill
bootstrap: file-lock2 file-lock2-fill file-earmark-lock file-earmark-lock-fill file-earmark-lock2 file-earmark-lock2-fill
# Clouds with another meaning: weather (cloudy, rain, snow...), clouds with a check/plus/minus/slash,
# cloud-shaped logos
bootstrap: cloud-check cloud-check-fill cloud-minus cloud-minus-fill cloud-plus cloud-plus-fill cloud-slash cloud-slash-fill
bootstrap: cloud-drizzle cloud-drizzle-fill cloud-fog cloud-fog-fill cloud-fog2 cloud-fog2-fill cloud-hail cloud-hail-fill
bootstrap: cloud-haze cloud-haze-fill cloud-haze2 cloud-haze2-fill cloud-lightning cloud-lightning-fill cloud-lightning-rain
bootstrap: cloud-lightning-rain-fill cloud-moon cloud-moon-fill cloud-rain cloud-rain-fill cloud-rain-heavy cloud-rain-heavy-fill
bootstrap: cloud-sleet cloud-sleet-fill cloud-snow cloud-snow-fill cloud-sun cloud-sun-fill clouds clouds-fill cloudy cloudy-fill
# Houses that are not home, and other look-alikes: lodging and building houses, houses with a badge,
# a question mark on a device or in a bubble, a martini glass (a funnel), a pocket-shaped chevron logo
bootstrap: house-add house-add-fill house-check house-check-fill house-dash house-dash-fill house-down house-down-fill
bootstrap: house-exclamation house-exclamation-fill house-gear house-gear-fill house-heart house-heart-fill house-lock
bootstrap: house-lock-fill house-slash house-slash-fill house-up house-up-fill house-x house-x-fill houses houses-fill strava
"""#
}
