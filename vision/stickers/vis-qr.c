#include "vis-qr.h"

#include <errno.h>
#include <string.h>

#include <qrencode.h>

static bool
is_qr_alphanumeric (char c)
{
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')
         || (c != '\0' && strchr (" $%*+-./:", c) != NULL);
}

EngStatus
vis_qr_encode (const char *payload, size_t len, VisQrModules *out)
{
  if (payload == NULL || out == NULL || len == 0)
    return ENG_ERR_INVALID_ARGUMENT;
  for (size_t i = 0; i < len; i++)
    if (!is_qr_alphanumeric (payload[i]))
      return ENG_ERR_INVALID_ARGUMENT;
  if (len > VIS_QR_MAX_PAYLOAD)
    return ENG_ERR_LIMIT;

  /* The mode is given explicitly (not guessed by QRcode_encodeString) so the
   * capacity check above is exactly the one the encoder applies. */
  QRinput *input = QRinput_new2 (VIS_QR_VERSION, QR_ECLEVEL_Q);
  if (input == NULL)
    return ENG_ERR_NO_MEMORY;
  if (QRinput_append (input, QR_MODE_AN, (int) len, (const unsigned char *) payload) != 0)
    {
      EngStatus status = errno == ENOMEM ? ENG_ERR_NO_MEMORY : ENG_ERR_INVALID_ARGUMENT;
      QRinput_free (input);
      return status;
    }
  QRcode *code = QRcode_encodeInput (input);
  QRinput_free (input);
  if (code == NULL)
    return errno == ENOMEM ? ENG_ERR_NO_MEMORY : ENG_ERR_LIMIT;

  /* libqrencode grows the version when the data does not fit; a grown code
   * would print smaller modules than every other sticker, so refuse it. */
  if (code->version != VIS_QR_VERSION || code->width != VIS_QR_SIZE)
    {
      QRcode_free (code);
      return ENG_ERR_LIMIT;
    }
  out->size = VIS_QR_SIZE;
  for (int i = 0; i < VIS_QR_SIZE * VIS_QR_SIZE; i++)
    out->dark[i] = code->data[i] & 1;   /* bit 0 is the module colour */
  QRcode_free (code);
  return ENG_OK;
}

bool
vis_qr_module_dark (const VisQrModules *qr, int x, int y)
{
  if (qr == NULL || x < 0 || y < 0 || x >= qr->size || y >= qr->size)
    return false;
  return qr->dark[y * qr->size + x] != 0;
}
