import { graphql } from '../../gql';

export const VenuesQuery = graphql(`
  query DashboardCalendarVenues {
    accommodations {
      id
      name
      timeZone
      objects {
        id
        name
        bookingRules {
          minDurationMinutes
          slotIncrementMinutes
        }
        openingHours {
          specialDates {
            date
            closed
            reason
          }
        }
      }
    }
  }
`);

export const SlotsQuery = graphql(`
  query DashboardCalendarSlots($date: String!, $objectId: ID!) {
    availability(date: $date, objectId: $objectId) {
      slots {
        start
        end
        available
      }
    }
  }
`);

export const CalendarBookingsQuery = graphql(`
  query DashboardCalendarBookings($from: DateTime, $to: DateTime, $after: String) {
    bookingsConnection(from: $from, to: $to, first: 100, after: $after) {
      edges {
        node {
          id
          objectId
          guestName
          guestEmail
          startTime
          endTime
          status
          totalPrice
          currency
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export const QuoteQuery = graphql(`
  query DashboardDeskQuote($objectId: ID!, $startTime: DateTime!, $endTime: DateTime!) {
    priceQuote(objectId: $objectId, startTime: $startTime, endTime: $endTime) {
      totalPrice
      currency
      breakdown
    }
  }
`);

export const CreateBookingMutation = graphql(`
  mutation DashboardDeskCreateBooking(
    $objectId: ID!
    $guestName: String!
    $guestEmail: String!
    $guestPhone: String
    $startTime: DateTime!
    $endTime: DateTime!
    $status: BookingStatus
  ) {
    createBooking(
      objectId: $objectId
      guestName: $guestName
      guestEmail: $guestEmail
      guestPhone: $guestPhone
      startTime: $startTime
      endTime: $endTime
      status: $status
    ) {
      booking {
        id
        status
        guestName
        startTime
        endTime
        totalPrice
        currency
      }
    }
  }
`);

export const RescheduleMutation = graphql(`
  mutation DashboardRescheduleBooking($bookingId: ID!, $startTime: DateTime!, $endTime: DateTime!, $objectId: ID) {
    rescheduleBooking(bookingId: $bookingId, startTime: $startTime, endTime: $endTime, objectId: $objectId) {
      booking {
        id
        objectId
        startTime
        endTime
        totalPrice
        currency
      }
      previous {
        totalPrice
      }
    }
  }
`);

export const UpdateGuestMutation = graphql(`
  mutation DashboardUpdateBookingGuest($bookingId: ID!, $guestName: String, $guestEmail: String, $guestPhone: String) {
    updateBookingGuest(bookingId: $bookingId, guestName: $guestName, guestEmail: $guestEmail, guestPhone: $guestPhone) {
      booking {
        id
        guestName
        guestEmail
        guestPhone
      }
    }
  }
`);
