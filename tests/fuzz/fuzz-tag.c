/* libFuzzer target: eng_tag_parse on arbitrary bytes, and the codec's
 * invariants on whatever it accepts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-util.h"
#include "eng-tag.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* A heap copy of exactly `size` bytes, so ASan catches any read past it. */
  char *bytes = fuzz_text (data, size);
  if (bytes == NULL)
    return 0;

  EngTag tag;
  memset (&tag, 0x5a, sizeof tag);
  EngTag untouched = tag;
  EngStatus st = eng_tag_parse (bytes, size, &tag);
  if (st == ENG_OK)
    {
      /* Accepted: 11 bytes that format back to exactly themselves. */
      if (size != ENG_TAG_PAYLOAD_LEN)
        abort ();
      char again[ENG_TAG_PAYLOAD_LEN + 1];
      if (eng_tag_format (&tag, again) != ENG_OK || memcmp (again, bytes, size) != 0
          || again[ENG_TAG_PAYLOAD_LEN] != '\0')
        abort ();
      if (tag.serial < 1 || tag.serial > 999)
        abort ();
      if (eng_tag_check_char (bytes, ENG_TAG_PAYLOAD_LEN - 1) != bytes[ENG_TAG_PAYLOAD_LEN - 1])
        abort ();
      /* Any other check character is a checksum failure. */
      char wrong[ENG_TAG_PAYLOAD_LEN];
      memcpy (wrong, bytes, sizeof wrong);
      wrong[ENG_TAG_PAYLOAD_LEN - 1] = wrong[ENG_TAG_PAYLOAD_LEN - 1] == '0' ? '1' : '0';
      if (eng_tag_parse (wrong, sizeof wrong, NULL) != ENG_ERR_TAG_CHECKSUM)
        abort ();
    }
  else
    {
      if (st != ENG_ERR_TAG_FOREIGN && st != ENG_ERR_TAG_CHECKSUM)
        abort ();
      if (memcmp (&tag, &untouched, sizeof tag) != 0)
        abort ();
    }

  /* The formatter, fed fields taken from the input, either refuses or
   * writes a payload the parser accepts with the same fields. */
  if (size >= 6)
    {
      EngTag in = {
        .game = (char) data[0],
        .set = { (char) data[1], (char) data[2], '\0' },
        .kind = (EngTagKind) data[3],
        .serial = (uint16_t) (data[4] | data[5] << 8),
      };
      char out[ENG_TAG_PAYLOAD_LEN + 1];
      if (eng_tag_format (&in, out) == ENG_OK)
        {
          EngTag back;
          if (eng_tag_parse (out, strlen (out), &back) != ENG_OK || back.game != in.game
              || strcmp (back.set, in.set) != 0 || back.kind != in.kind
              || back.serial != in.serial)
            abort ();
        }
    }
  (void) eng_tag_kind_to_string ((EngTagKind) (size ? data[0] : 0));
  free (bytes);
  return 0;
}
